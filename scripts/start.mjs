#!/usr/bin/env node
// `npm start`: one command for a local stack. Uses DATABASE_URL/REDIS_URL when set, otherwise an
// embedded PostgreSQL under .data/ and each service's in-process store. Migrates, seeds demo data
// into an empty database, starts the three services as separate processes (as they are deployed),
// waits until each answers /ready, and prints what a developer needs to try them.
// With demo data it also runs the demo relying party (examples/demo-app) on its own port.
// Ctrl-C (or SIGTERM) drains the services, then stops the embedded PostgreSQL.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPrismaClient, migrate } from '@svc/db';
import { dataDir, ensureSigningKeys, openLocalDatabase, seedDemo } from '@svc/admin';
import { formatLogLine } from './log-lines.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const services = [
  { name: 'identity-provider', port: Number(env.IDP_PORT ?? 4000) },
  { name: 'wallet-verify', port: Number(env.WALLET_VERIFY_PORT ?? 4001) },
  { name: 'credential-issuer', port: Number(env.CREDENTIAL_ISSUER_PORT ?? 4002) },
];
const demoApp = { name: 'demo-app', port: Number(env.DEMO_APP_PORT ?? 4003), entry: join(root, 'examples', 'demo-app', 'dist', 'server.js') };
const publicUrl = ({ name, port }) => env[`${name.toUpperCase().replace(/-/g, '_')}_PUBLIC_URL`] ?? `http://localhost:${port}`;
const demoRedirectUri = `http://localhost:${demoApp.port}/callback`;
const say = (line) => process.stdout.write(`[start] ${line}\n`);
const readable = process.stdout.isTTY === true && env.LOG_FORMAT !== 'json';

const database = env.DATABASE_URL ? await openLocalDatabase(env) : await embeddedDatabase();
say(database.embedded ? `embedded PostgreSQL at ${new URL(database.url).host} (data in ${dataDir(env)})` : 'using DATABASE_URL');
if (!database.embedded) await migrate(database.url);

const idpSecret = env.IDP_SECRET ?? localSecret('idp-secret');
// Signing keys are sealed at rest under this key-encryption key (kept beside the embedded data).
env.SIGNING_KEY_KEK ??= localSecret('signing-key-kek');
process.env.SIGNING_KEY_KEK = env.SIGNING_KEY_KEK;
// Demo users, clients and keys go only into the embedded database, or where asked for
// (SVC_DEMO=1 or --demo): never silently into a real, external one.
const wantDemo = database.embedded || env.SVC_DEMO === '1' || process.argv.includes('--demo');
const demo = await loadOrSeedDemo(database.url, wantDemo);
const children = services.map(startService);
if (demo) children.push(startService(demoApp, children.length));
let stopping = false;

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void shutdown(0));
for (const child of children) {
  child.process.on('exit', (code, signal) => {
    if (!stopping) {
      // A terminal's Ctrl-C reaches the services too; one that drained and exited 0 is no failure.
      if (code !== 0) say(`${child.name} exited unexpectedly (${signal ?? code}); stopping everything`);
      void shutdown(code === 0 ? 0 : 1);
    }
  });
}

try {
  await Promise.all([...services, ...(demo ? [demoApp] : [])].map((s) => waitReady(s)));
} catch (err) {
  say(err.message);
  await shutdown(1);
}
printBanner(demo);

function startService({ name, port, entry }, index) {
  const demoClient = demo?.clients.confidential;
  const childEnv = entry
    ? // The demo app: an integrator's app, which knows its client and the identity provider, nothing more.
      {
        PATH: env.PATH,
        DEMO_APP_PORT: String(port),
        IDP_URL: publicUrl(services[0]),
        DEMO_CLIENT_ID: demoClient.client_id,
        DEMO_CLIENT_SECRET: demoClient.client_secret,
        DEMO_REDIRECT_URI: demoRedirectUri,
      }
    : {
        ...env,
        PORT: String(port),
        DATABASE_URL: database.url,
        IDP_SECRET: idpSecret,
        SIGNING_KEY_KEK: env.SIGNING_KEY_KEK,
        LOG_LEVEL: env.LOG_LEVEL ?? 'info',
        // Locally every request is worth seeing, not only failures.
        LOG_REQUESTS: env.LOG_REQUESTS ?? 'all',
        PUBLIC_URL: publicUrl({ name, port }),
      };
  const child = spawn(process.execPath, [entry ?? join(root, 'apps', name, 'dist', 'server.js')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A person at a terminal reads lines; anything else (a pipe, a file, a log shipper) gets the JSON.
  const show = readable ? (line) => formatLogLine(name, line, { index }) : (line) => `[${name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream.on('data', (chunk) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) if (line) process.stdout.write(`${show(line)}\n`);
    });
  }
  return { name, process: child };
}

async function waitReady({ name, port }) {
  const deadline = Date.now() + 60_000;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      if (res.ok) return;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${name} was not ready within 60 s: ${last}`);
}

async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  say('stopping services…');
  await Promise.all(
    children.map(
      ({ process: child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await database.close();
  say(database.embedded ? 'services and embedded PostgreSQL stopped' : 'services stopped');
  process.exit(code);
}

/**
 * The embedded cluster, started and held by scripts/db-keeper.mjs in a process group of its own,
 * so Ctrl-C stops the services first and the database last, with no connection errors between.
 */
async function embeddedDatabase() {
  const keeper = spawn(process.execPath, [join(root, 'scripts', 'db-keeper.mjs')], { env, detached: true, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { url } = await new Promise((resolve, reject) => {
    keeper.once('message', resolve);
    keeper.once('exit', (code) => reject(new Error(`embedded PostgreSQL did not start (exit ${code})`)));
  });
  const exited = new Promise((resolve) => keeper.once('exit', resolve));
  return {
    url,
    embedded: true,
    close: async () => {
      if (keeper.connected) keeper.send('stop');
      await exited;
    },
  };
}

/** A random secret kept (mode 0600) under the data dir, so a restart keeps sessions and subjects stable. */
function localSecret(name) {
  const file = join(dataDir(env), name);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir(env), { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Seeds an empty database and keeps the demo secrets in .data/demo.json (mode 0600), the only
 * place they exist: the database holds their hashes. A second start reads them back.
 */
async function loadOrSeedDemo(url, wanted) {
  const file = join(dataDir(env), 'demo.json');
  const db = createPrismaClient(url, { poolSize: 2 });
  const ctx = { db, now: () => new Date() };
  try {
    if (wanted && (await db.user.count()) === 0) {
      const demo = await seedDemo(ctx);
      mkdirSync(dataDir(env), { recursive: true });
      writeFileSync(file, JSON.stringify(demo, null, 2), { mode: 0o600 });
      say(`seeded demo data (secrets saved to ${file})`);
      await registerDemoAppCallback(db, demo);
      return { ...demo, fresh: true };
    }
    await ensureSigningKeys(ctx);
    if (!wanted) {
      say('external database: no demo data seeded (set SVC_DEMO=1 or pass --demo to seed an empty one)');
      return undefined;
    }
    if (existsSync(file)) {
      const kept = JSON.parse(readFileSync(file, 'utf8'));
      await registerDemoAppCallback(db, kept);
      return kept;
    }
    say('the database already has data; no demo secrets on file to show');
    return undefined;
  } finally {
    await db.$disconnect();
  }
}

/** The demo client accepts the demo app's callback on the port it runs on (data from older starts had another). */
async function registerDemoAppCallback(db, demo) {
  const where = { clientId: demo.clients.confidential.client_id };
  const client = await db.application.findUnique({ where, select: { redirectUris: true } });
  if (client && !client.redirectUris.includes(demoRedirectUri)) await db.application.update({ where, data: { redirectUris: { push: demoRedirectUri } } });
  demo.clients.confidential.redirect_uri = demoRedirectUri;
}

function printBanner(demo) {
  const [idp, wallet, issuer] = services.map((s) => `http://localhost:${s.port}`);
  const lines = ['', 'All three services are ready:', `  identity-provider  ${idp}`, `  wallet-verify      ${wallet}`, `  credential-issuer  ${issuer}`];
  if (demo) {
    const client = demo.clients.confidential;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL('/oauth/authorize', idp);
    authorize.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      response_type: 'code',
      scope: 'openid identity:read kyc:read',
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const user = demo.users.palm_verified;
    lines.push(
      '',
      `Demo app (a relying party built with the SDK): open http://localhost:${demoApp.port} and sign in as ${user.email}${demo.fresh ? ' (password below)' : ` (password in ${join(dataDir(env), 'demo.json')})`}.`,
      'Every endpoint by example: docs/identity-provider.md, docs/wallet-verify.md, docs/credential-issuer.md ("Every endpoint, by example").',
    );
    // Demo secrets are shown once, when they are made, in a marked block; later starts point to the file.
    if (!demo.fresh) {
      lines.push(
        '',
        `Demo data: client_id=${client.client_id}; its secret, the users' passwords and the API keys are in ${join(dataDir(env), 'demo.json')} (mode 0600).`,
        `  open ${authorize}`,
        `  PKCE code_verifier for that URL: ${verifier}`,
      );
    } else
      lines.push(
        '',
        '=== DEMO SECRETS (embedded demo data, local development only; shown once, kept in .data/demo.json) ===',
        `  OAuth client (confidential)  client_id=${client.client_id}`,
        `                               client_secret=${client.client_secret}`,
        `  OAuth client (public, PKCE)  client_id=${demo.clients.public.client_id}`,
        `  redirect URI                 ${client.redirect_uri}`,
        `  user (palm-verified)         ${user.email} / ${user.password}   wallet ${user.wallets[0]}`,
        `  user (not palm-verified)     ${demo.users.not_palm_verified.email} / ${demo.users.not_palm_verified.password}`,
        `  developer (org owner)        ${demo.users.developer.email} / ${demo.users.developer.password}`,
        `  wallet-verify API key        ${demo.api_keys.wallet_verify.key}`,
        `  credential-issuer API token  ${demo.api_keys.credential_issuer.key}`,
        '',
        'Try:',
        `  curl -H 'X-SVC-API-Key: ${demo.api_keys.wallet_verify.key}' '${wallet}/v1/human/verify?wallet_address=${user.wallets[0]}'`,
        `  open ${authorize}`,
        `  PKCE code_verifier for that URL: ${verifier}`,
        '  (after you approve, the demo app shows the code to exchange with that verifier: docs/identity-provider.md)',
        '=== END OF DEMO SECRETS ===',
      );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  process.stdout.write(lines.join('\n'));
}
