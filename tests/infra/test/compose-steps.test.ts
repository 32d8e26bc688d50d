// The compose file's one-shot steps (demo data, the issuer's link) run as compose runs them: their
// scripts from the repository at the image's paths, their secrets from files, each on a database of its own.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient } from '@svc/db';
import { repoRoot } from '@svc/testkit';
import { spawnSync } from 'node:child_process';
import { type ComposeService, compose, devSecrets, dropDatabases, interpolate, OWN_SECRETS, ownDatabase, secret } from './compose-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-compose-steps-'));
const dropAfterwards: string[] = [];
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await dropDatabases(dropAfterwards);
});

describe('docker-compose.yml’s steps', () => {
  it('seeds demo data only with SVC_DEMO=1 and into a database without users, printing its secrets once', async () => {
    // infra/compose/demo.mjs as the demo step runs it: from the image's /app, where the admin CLI
    // sits at the same path as in this repository; its database URL and keys from files. A database
    // of its own: the run's is shared with the other files (their users, their services' keys).
    const dir = join(scratch, 'demo');
    mkdirSync(dir, { recursive: true });
    const own = await ownDatabase('demo', dropAfterwards);
    for (const [name, value] of Object.entries({
      DATABASE_URL: own,
      IDP_SIGNING_KEY_KEK: randomBytes(36).toString('base64url'),
      ISSUER_SIGNING_KEY_KEK: randomBytes(36).toString('base64url'),
    }))
      writeFileSync(join(dir, name), value);
    const demo = (SVC_DEMO: string) =>
      spawnSync(process.execPath, [`${repoRoot}infra/compose/demo.mjs`], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          SVC_DEMO,
          ...Object.fromEntries(OWN_SECRETS.demo!.map((name) => [`${name}_FILE`, join(dir, name)])),
        },
      });
    const notAsked = demo('');
    expect([notAsked.status, notAsked.stdout]).toEqual([0, expect.stringMatching(/^demo: no demo data asked for \(`SVC_DEMO=1 docker compose up`/)]);

    const seeded = demo('1');
    expect([seeded.status, seeded.stderr]).toEqual([0, '']);
    const json = seeded.stdout.match(/^demo: seed:demo (.+)$/m)?.[1];
    const data = JSON.parse(json!) as { users: { palm_verified: { email: string; password: string } }; clients: { confidential: { client_secret: string } } };
    const block = seeded.stdout.slice(seeded.stdout.indexOf('=== DEMO SECRETS'), seeded.stdout.indexOf('=== END OF DEMO SECRETS'));
    expect(block).toContain(`${data.users.palm_verified.email} / ${data.users.palm_verified.password}`);
    expect(block).toContain(`client_secret=${data.clients.confidential.client_secret}`);

    const again = demo('1');
    expect([again.status, again.stdout]).toEqual([0, expect.stringMatching(/^demo: the database already has users: no demo data seeded/)]);
    expect(again.stdout).not.toContain(data.users.palm_verified.password);
  });

  it('links the credential issuer to the identity provider on every up, on the ids and secrets both are given', async () => {
    const { link, 'identity-provider': idp, 'credential-issuer': issuer } = compose.services;
    const env = (service: ComposeService, name: string) => interpolate(String(service.environment![name]));
    const given = (flag: string) => interpolate(link!.command![link!.command!.indexOf(flag) + 1]!);
    // Each names the other by its public URL, and both the issuer's client and organization.
    expect(env(idp!, 'CREDENTIAL_ISSUER_URL')).toBe(env(issuer!, 'PUBLIC_URL'));
    expect(env(issuer!, 'AUTHORIZATION_SERVER_URL')).toBe(env(idp!, 'PUBLIC_URL'));
    expect([given('--issuer-url'), given('--idp-url')]).toEqual([env(issuer!, 'PUBLIC_URL'), env(idp!, 'PUBLIC_URL')]);
    expect([given('--client-id'), env(idp!, 'CREDENTIAL_ISSUER_CLIENT_ID')]).toEqual([env(issuer!, 'AUTHORIZATION_SERVER_CLIENT_ID'), given('--client-id')]);
    expect(given('--org')).toBe(env(issuer!, 'WALLET_ORGANIZATION_ID'));
    expect(link!.command).toEqual(expect.arrayContaining(['--rotate-client-secret', '--rotate-webhook-secret']));

    // The step as compose runs it (the image's admin CLI at the same path as here, its secrets from
    // files), twice, on a database of its own: made, then found; the issuer's secrets are the link's.
    const root = join(scratch, 'link');
    expect(devSecrets(root).code).toBe(0);
    const own = await ownDatabase('link', dropAfterwards);
    const urlFile = join(scratch, 'link-database-url');
    writeFileSync(urlFile, own);
    const step = () =>
      spawnSync(
        process.execPath,
        link!.command!.slice(1).map((arg) => interpolate(arg)),
        {
          cwd: repoRoot,
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH ?? '',
            ...Object.fromEntries(
              Object.entries(link!.environment!).map(([k, v]) => [
                k,
                k === 'DATABASE_URL_FILE' ? urlFile : String(v).replace(/^\/run\/secrets\//, `${root}/link/`),
              ]),
            ),
          },
        },
      );
    const first = step();
    expect([first.status, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(first.stdout)).toMatchObject({ made: ['organization', 'client', 'approval_events_endpoint'], organization_id: given('--org') });
    const again = step();
    expect([again.status, JSON.parse(again.stdout).made]).toEqual([0, []]);
    // It prints no secret: the issuer reads them from its own files.
    for (const name of ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET']) {
      expect(first.stdout + again.stdout).not.toContain(secret(root, 'link', name));
      expect(secret(root, 'credential-issuer', name)).toBe(secret(root, 'link', name));
    }
    const db = createPrismaClient(own, { poolSize: 1 });
    try {
      const client = await db.application.findUniqueOrThrow({ where: { clientId: given('--client-id') } });
      expect(client.clientSecretHash).toBe(
        createHash('sha256')
          .update(secret(root, 'link', 'AUTHORIZATION_SERVER_CLIENT_SECRET'))
          .digest('hex'),
      );
      expect((await db.webhookEndpoint.findMany()).map((e) => e.url)).toEqual([`${env(issuer!, 'PUBLIC_URL')}/authorization-server/events`]);
    } finally {
      await db.$disconnect();
    }
  });
});
