import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient, type Db } from '@svc/db';
import { cleanEnv, freePort, repoRoot, run, testSuiteDatabaseUrl, waitFor } from '@svc/testkit';
import { stoppedAfterEachTest, untilBanner } from './launched.js';
import { makeWalletData, person, receiveFrom, type WalletTarget } from './wallet-services.js';

// `npm start` on an external database that holds no demo data: it links the identity provider and
// the credential issuer all the same (they are one deployment), so a wallet asking through the
// identity provider receives its credential; the next start finds the link it made.
const dataDir = mkdtempSync(join(tmpdir(), 'svc-linked-'));
chmodSync(dataDir, 0o755);
let url: string;
let db: Db;
const keep = stoppedAfterEachTest();
beforeAll(async () => {
  // A database of this file's own, migrated and empty: the run's shared one may hold demo data.
  url = await testSuiteDatabaseUrl('linked');
  db = createPrismaClient(url, { poolSize: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `node scripts/start.mjs` on that database, up to its banner; stopped as Ctrl-C stops it. */
async function launch() {
  const ports = {
    IDP_PORT: await freePort(),
    WALLET_VERIFY_PORT: await freePort(),
    CREDENTIAL_ISSUER_PORT: await freePort(),
    SANDBOX_PORT: await freePort(),
    DEMO_APP_PORT: await freePort(),
  };
  const env = cleanEnv({
    DATABASE_URL: url,
    SVC_DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    // The identity provider may deliver the approval events to the issuer on this machine.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
  });
  const launcher = run(process.execPath, [`${repoRoot}scripts/start.mjs`], env, true);
  const stop = keep(async () => {
    if (launcher.child.exitCode === null) process.kill(-launcher.child.pid!, 'SIGINT');
    return launcher.exited;
  });
  await untilBanner(launcher);
  const target: WalletTarget = {
    idpUrl: `http://localhost:${ports.IDP_PORT}`,
    issuerUrl: `http://localhost:${ports.CREDENTIAL_ISSUER_PORT}`,
    walletClientId: '',
  };
  return { output: launcher.output, target, stop };
}

/** A wallet's credential through the identity provider, and its approval revoked there: the issuer is told by webhook. */
async function receiveAndRevoke(target: WalletTarget) {
  const { accessTokenResponse, retrieve } = await receiveFrom(target, person);
  const { credentialResponse } = await retrieve();
  const revoked = await fetch(`${target.idpUrl}/oauth/revoke`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: accessTokenResponse.refresh_token!, client_id: target.walletClientId }),
  });
  expect(revoked.status).toBe(200);
  const deliveries = () =>
    db.webhookDelivery.findMany({ where: { event: { type: 'wallet_approval.revoked', subject: accessTokenResponse.authorization_id as string } } });
  await waitFor(async () => (await deliveries()).some((d) => d.status === 'succeeded'), 20_000, 'the approval event delivered to the issuer');
  return (credentialResponse.credentials![0] as { credential: string }).credential;
}

describe('npm start on an external database without demo data', () => {
  it('links the identity provider and the credential issuer: a wallet receives a credential through the identity provider, on this start and the next', async () => {
    const first = await launch();
    expect(first.output()).toContain('external database: no demo data seeded');
    expect(first.output()).toContain('[start] linked the credential issuer to the identity provider (its client svc_client_credential_issuer)');
    expect(await db.user.count()).toBe(0);
    const { walletClientId } = await makeWalletData({ db, now: () => new Date() });
    const credential = await receiveAndRevoke({ ...first.target, walletClientId });
    expect(credential.split('~').length).toBeGreaterThan(2);
    expect(await first.stop()).toBe(0);

    // The next start finds the client, organization and endpoint the first one made, and the
    // client's secret the launcher kept still opens the identity provider's introspection to it.
    const second = await launch();
    expect(second.output()).not.toContain('linked the credential issuer');
    expect(await db.application.findMany({ where: { name: 'Credential issuer' }, select: { clientId: true } })).toEqual([
      { clientId: 'svc_client_credential_issuer' },
    ]);
    expect(await db.webhookEndpoint.count()).toBe(1);
    expect((await receiveAndRevoke({ ...second.target, walletClientId })).split('~').length).toBeGreaterThan(2);
    expect(await second.stop()).toBe(0);
  }, 540_000);
});
