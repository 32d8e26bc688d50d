import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { processAlive } from '@svc/db';
import { cleanEnv, freePort, isListening, repoRoot, run } from '@svc/testkit';
import { stoppedAfterEachTest, untilBanner } from './launched.js';
import { runInTerminal } from './terminal.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-launcher-'));
// As root the embedded cluster runs as the `postgres` user, which must be able to enter the directory.
chmodSync(dataDir, 0o755);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const keep = stoppedAfterEachTest();

type Ports = Record<'IDP_PORT' | 'WALLET_VERIFY_PORT' | 'CREDENTIAL_ISSUER_PORT' | 'SANDBOX_PORT' | 'DEMO_APP_PORT' | 'EMBEDDED_PG_PORT', number>;
const launcherEnv = (ports: Ports) =>
  cleanEnv({ SVC_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])) });

/** `npm start` in a terminal, as the README has a person run it, up to its banner. */
async function launch() {
  const ports: Ports = {
    IDP_PORT: await freePort(),
    WALLET_VERIFY_PORT: await freePort(),
    CREDENTIAL_ISSUER_PORT: await freePort(),
    SANDBOX_PORT: await freePort(),
    DEMO_APP_PORT: await freePort(),
    EMBEDDED_PG_PORT: await freePort(),
  };
  const launcher = runInTerminal('npm start', launcherEnv(ports));
  keep(async () => {
    if (launcher.child.exitCode === null) launcher.press('\u0003');
    return launcher.exited;
  });
  await untilBanner(launcher);
  return { launcher, ports };
}

function postmasterPid(): number | undefined {
  const file = join(dataDir, 'postgres', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

describe('npm start (the launcher) on embedded defaults', () => {
  it('starts all three services and the sandbox ready, prints the demo data, and stops everything on Ctrl-C', async () => {
    const { launcher, ports } = await launch();
    const output = launcher.output();
    for (const port of [ports.IDP_PORT, ports.WALLET_VERIFY_PORT, ports.CREDENTIAL_ISSUER_PORT, ports.SANDBOX_PORT]) {
      const ready = await fetch(`http://127.0.0.1:${port}/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toMatchObject({ status: 'ready' });
    }
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
    expect(output).toContain(`client_id=${demo.clients.confidential.client_id}`);
    expect(output).toContain(`client_secret=${demo.clients.confidential.client_secret}`);
    expect(output).toContain(`${demo.users.palm_verified.email} / ${demo.users.palm_verified.password}`);
    expect(output).toContain(demo.api_keys.wallet_verify.key);
    expect(output).toContain(demo.api_keys.credential_issuer.key);
    expect(output).toMatch(/\/oauth\/authorize\?client_id=.+code_challenge=[A-Za-z0-9_-]{43}&code_challenge_method=S256/);
    expect(output).toMatch(/PKCE code_verifier for that URL: [A-Za-z0-9_-]{43}/);
    // The sandbox: its own issuer on its own port, and each environment knows where the other is.
    const sandboxUrl = `http://localhost:${ports.SANDBOX_PORT}`;
    expect(output).toContain(`  sandbox            ${sandboxUrl}`);
    const sandboxDiscovery = await (await fetch(`http://127.0.0.1:${ports.SANDBOX_PORT}/.well-known/svc-configuration`)).json();
    expect(sandboxDiscovery).toMatchObject({ issuer: sandboxUrl, environment: 'sandbox', production_base_url: `http://localhost:${ports.IDP_PORT}` });
    const productionDiscovery = await (await fetch(`http://127.0.0.1:${ports.IDP_PORT}/.well-known/svc-configuration`)).json();
    expect(productionDiscovery).toMatchObject({ environment: 'production', sandbox_base_url: sandboxUrl });

    const verify = await fetch(`http://127.0.0.1:${ports.WALLET_VERIFY_PORT}/v1/human/verify?wallet_address=${demo.users.palm_verified.wallets[0]}`, {
      headers: { 'X-SVC-API-Key': demo.api_keys.wallet_verify.key },
    });
    // user_id: the user as the demo organization knows them (pairwise), not the user's own id.
    const verdict = (await verify.json()) as { user_id: string };
    expect(verdict).toEqual({ wallet_address: demo.users.palm_verified.wallets[0], is_human: true, user_id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(verdict.user_id).not.toBe(demo.users.palm_verified.id);
    // The demo app runs beside them, its callback registered for the demo client, and starts a sign-in there.
    expect(output).toContain(`open http://localhost:${ports.DEMO_APP_PORT} and sign in as ${demo.users.palm_verified.email}`);
    const login = await fetch(`http://127.0.0.1:${ports.DEMO_APP_PORT}/login`, { redirect: 'manual' });
    const authorize = await fetch(login.headers.get('location')!.replace('localhost', '127.0.0.1'), { headers: { accept: 'application/json' } });
    expect(authorize.status).toBe(200);
    expect(await authorize.json()).toMatchObject({ authorization_id: expect.any(String) });

    // The credential issuer takes the identity provider's wallet_approval events: an unsigned one is refused, not unknown.
    const event = await fetch(`http://127.0.0.1:${ports.CREDENTIAL_ISSUER_PORT}/authorization-server/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'webhook.test', data: {} }),
    });
    expect(event.status).toBe(401);

    // A second npm start beside it names each taken port and what holds it, starts nothing, and fails.
    const second = run(process.execPath, [`${repoRoot}scripts/start.mjs`], launcherEnv(ports), true);
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`port ${ports.IDP_PORT} (identity-provider) is taken by`);
    expect(second.output()).toMatch(/another npm start is probably running; stop it, or choose another port with IDP_PORT=/);
    expect(second.output()).not.toContain('ready');
    expect((await fetch(`http://127.0.0.1:${ports.IDP_PORT}/ready`)).status).toBe(200);

    const pg = postmasterPid();
    expect(pg).toBeDefined();
    // Ctrl-C in a terminal signals its whole foreground process group: npm, the launcher, the services.
    launcher.press('\u0003');
    // npm reports a script ended by Ctrl-C as a shell does, 128 + SIGINT; the launcher itself exits 0.
    expect(await launcher.exited).toBe(130);
    for (const port of Object.values(ports)) expect(await isListening(port)).toBe(false);
    expect(processAlive(pg!)).toBe(false);
    // In order and quietly: the database outlives the services, so none logs a lost connection.
    const stopping = launcher.output().slice(launcher.output().indexOf('[start] stopping services'));
    expect(stopping).toMatch(/^\[start\] stopping services…\n(.*\n)*\[start\] services and embedded PostgreSQL stopped\n$/);
    expect(stopping).not.toMatch(/ (WARN|ERROR|FATAL) |shutting down|terminating connection|ECONNRESET|\n\s+at /);
  }, 300_000);

  it('reuses the data on a second start, shows no secrets again, and stops on Ctrl-C', async () => {
    const before = JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8'));
    const { launcher, ports } = await launch();
    const output = launcher.output();
    for (const port of [ports.IDP_PORT, ports.WALLET_VERIFY_PORT, ports.CREDENTIAL_ISSUER_PORT, ports.SANDBOX_PORT, ports.DEMO_APP_PORT])
      expect((await fetch(`http://127.0.0.1:${port}/ready`)).status).toBe(200);
    expect(output).not.toContain('seeded demo data');
    expect(output).toContain(`client_id=${before.clients.confidential.client_id}`);
    expect(output).toContain(`(password in ${join(dataDir, 'demo.json')})`);
    expect(output).not.toContain('DEMO SECRETS');
    expect(output).not.toContain(before.clients.confidential.client_secret);
    launcher.press('\u0003');
    // npm reports a script ended by Ctrl-C as a shell does, 128 + SIGINT; the launcher itself exits 0.
    expect(await launcher.exited).toBe(130);
    for (const port of Object.values(ports)) expect(await isListening(port)).toBe(false);
    expect(launcher.output()).toMatch(/\[start\] services and embedded PostgreSQL stopped\n$/);
  }, 300_000);
});
