// What `npm start` runs once the build is done (scripts/start.mjs): a local stack. Uses
// DATABASE_URL/REDIS_URL when set, otherwise an embedded PostgreSQL under .data/ and each
// service's in-process store. Migrates, seeds demo data into an empty database, links the credential
// issuer to the identity provider (on every start, seeded or not), starts the three services as
// separate processes (as they are deployed), waits until each answers /ready, and prints what a
// developer needs to try them.
// With demo data it also runs the demo relying party (examples/demo-app) on its own port.
// Beside them runs the sandbox identity provider (SVC_ENVIRONMENT=sandbox): the same paths on its
// own port, database, secrets and keys (docs/sandbox.md).
// Ctrl-C (or SIGTERM) drains the services, then stops the embedded PostgreSQL.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPrismaClient, ensureDatabaseExists, markDatabaseEnvironment, migrate, sandboxDatabaseUrl } from '@svc/db';
import { waitFor } from '@svc/testkit/processes';
import { dataDir, ensureSigningKeys, issuerLinkSettings, linkCredentialIssuer, openLocalDatabase, seedDemo } from '@svc/admin';
import { formatLogLine } from './log-lines.mjs';
import { takenPorts } from './port-holders.mjs';
import { bannerLines } from './start-banner.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const env = process.env;
const services = [
  { name: 'identity-provider', port: Number(env.IDP_PORT ?? 4000), variable: 'IDP_PORT' },
  { name: 'wallet-verify', port: Number(env.WALLET_VERIFY_PORT ?? 4001), variable: 'WALLET_VERIFY_PORT' },
  { name: 'credential-issuer', port: Number(env.CREDENTIAL_ISSUER_PORT ?? 4002), variable: 'CREDENTIAL_ISSUER_PORT' },
];
// The identity provider again, as the sandbox (it runs apps/identity-provider).
const sandbox = { name: 'sandbox', app: 'identity-provider', port: Number(env.SANDBOX_PORT ?? 4005), variable: 'SANDBOX_PORT' };
const demoApp = {
  name: 'demo-app',
  port: Number(env.DEMO_APP_PORT ?? 4003),
  variable: 'DEMO_APP_PORT',
  entry: join(root, 'examples', 'demo-app', 'dist', 'server.js'),
};
const publicUrl = ({ name, port }) => env[`${name.toUpperCase().replace(/-/g, '_')}_PUBLIC_URL`] ?? `http://localhost:${port}`;
const demoRedirectUri = `http://localhost:${demoApp.port}/callback`;
const say = (line) => process.stdout.write(`[start] ${line}\n`);
const readable = process.stdout.isTTY === true && env.LOG_FORMAT !== 'json';

// Nothing starts while another program holds a port (say, a first `npm start`).
const taken = await takenPorts([...services, sandbox, demoApp]);
if (taken.length) {
  for (const line of taken) say(line);
  process.exit(1);
}

const database = env.DATABASE_URL ? await openLocalDatabase(env) : await embeddedDatabase();
// On embedded defaults a webhook receiver on this machine (http://localhost) is what a developer tries first.
const webhookTargets = env.WEBHOOK_ALLOW_PRIVATE_TARGETS ?? (database.embedded ? 'true' : '');
say(database.embedded ? `embedded PostgreSQL at ${new URL(database.url).host} (data in ${dataDir(env)})` : 'using DATABASE_URL');
if (!database.embedded) await migrate(database.url);

const idpSecret = env.IDP_SECRET ?? localSecret('idp-secret');
// Each service seals its signing keys at rest under a key-encryption key of its own (kept beside
// the embedded data); this process's admin calls use the same ones.
env.IDP_SIGNING_KEY_KEK ??= localSecret('idp-signing-key-kek');
env.ISSUER_SIGNING_KEY_KEK ??= localSecret('issuer-signing-key-kek');
// Keys the user ids wallet-verify answers; the identity provider maps them back (user-token).
env.PAIRWISE_SECRET ??= localSecret('pairwise-secret');
// Demo users, clients and keys go only into the embedded database, or where asked for
// (SVC_DEMO=1 or --demo): never silently into a real, external one.
const wantDemo = database.embedded || env.SVC_DEMO === '1' || process.argv.includes('--demo');
const demo = await loadOrSeedDemo(database.url, wantDemo);
const issuerLink = await linkIssuer(database.url, demo);
const sandboxDatabase = await openSandboxDatabase();
const started = [...services, ...(sandboxDatabase ? [sandbox] : []), ...(demo ? [demoApp] : [])];
// Who spoke the last line shown in a terminal; a service may speak as soon as it is spawned.
const lastSpeaker = { name: '' };
const children = started.map(startService);
let stopping = false;
let ready = false;

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void shutdown(0));
for (const child of children) {
  child.process.on('exit', (code, signal) => {
    if (stopping) return;
    // A terminal's Ctrl-C reaches the services too: one that drained and exited 0 after start-up
    // is no failure. Any exit before every service is ready is (a port taken meanwhile, a bad setting).
    if (code !== 0 || !ready) say(`${child.name} exited ${ready ? 'unexpectedly' : 'while starting'} (${signal ?? code}); stopping everything`);
    void shutdown(code === 0 && ready ? 0 : 1);
  });
}

try {
  await Promise.all(started.map((s, i) => waitReady(s, children[i])));
} catch (err) {
  say(err.message);
  await shutdown(1);
}
ready = true;
process.stdout.write(
  bannerLines({
    services,
    sandboxUrl: sandboxDatabase ? publicUrl(sandbox) : undefined,
    demo,
    demoAppPort: demoApp.port,
    demoFile: join(dataDir(env), 'demo.json'),
    // Without SMTP_URL the identity providers keep their mail on a page of their own (docs/identity-provider.md, "Mail").
    mailOutboxes: env.SMTP_URL ? [] : [services[0], ...(sandboxDatabase ? [sandbox] : [])].map((s) => `${publicUrl(s)}/dev/outbox`),
  }).join('\n'),
);

function startService({ name, app, port, entry }, index) {
  const childEnv = entry ? demoAppEnv(port) : name === 'sandbox' ? sandboxEnv() : serviceEnv(name, port);
  const child = spawn(process.execPath, [entry ?? join(root, 'apps', app ?? name, 'dist', 'server.js')], {
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // A person at a terminal reads lines; anything else (a pipe, a file, a log shipper) gets the JSON.
  // In a terminal the service's name is shown when the speaker changes, not on every line.
  const show = readable
    ? (line) => {
        const shown = formatLogLine(name, line, { index, repeat: lastSpeaker.name !== name });
        lastSpeaker.name = name;
        return shown;
      }
    : (line) => `[${name}] ${line}`;
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

/**
 * The demo app: an integrator's app, which knows its client, the identity provider, its
 * organization's developer (who registers its webhook receiver) and its credential issuer API
 * token, nothing more.
 */
function demoAppEnv(port) {
  const client = demo.clients.confidential;
  return {
    PATH: env.PATH,
    DEMO_APP_PORT: String(port),
    IDP_URL: publicUrl(services[0]),
    DEMO_CLIENT_ID: client.client_id,
    DEMO_CLIENT_SECRET: client.client_secret,
    DEMO_REDIRECT_URI: demoRedirectUri,
    DEMO_DEVELOPER_EMAIL: demo.users.developer.email,
    DEMO_DEVELOPER_PASSWORD: demo.users.developer.password,
    // Its API token for the credential issuer: it offers the signed-in person an age credential for a wallet.
    CREDENTIAL_ISSUER_URL: publicUrl(services[2]),
    DEMO_ISSUER_API_TOKEN: demo.api_keys.credential_issuer.key,
  };
}

/** One of the three services, with only its own secrets (as deployed). */
function serviceEnv(name, port) {
  return {
    ...walletFlowEnv(name),
    ...env,
    PORT: String(port),
    DATABASE_URL: database.url,
    IDP_SECRET: name === 'identity-provider' ? idpSecret : '',
    IDP_SIGNING_KEY_KEK: name === 'identity-provider' ? env.IDP_SIGNING_KEY_KEK : '',
    ISSUER_SIGNING_KEY_KEK: name === 'credential-issuer' ? env.ISSUER_SIGNING_KEY_KEK : '',
    PAIRWISE_SECRET: name === 'credential-issuer' ? '' : env.PAIRWISE_SECRET,
    // Keys actions' nullifiers: a key of its own, kept beside the data like the others.
    ACTION_NULLIFIER_SECRET: name === 'identity-provider' ? (env.ACTION_NULLIFIER_SECRET ?? localSecret('action-nullifier-secret')) : '',
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    // Locally every request is worth seeing, not only failures.
    LOG_REQUESTS: env.LOG_REQUESTS ?? 'all',
    PUBLIC_URL: publicUrl({ name, port }),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: webhookTargets,
    ...(name === 'identity-provider' ? productionIdpEnv() : {}),
  };
}

/**
 * OpenID4VCI's authorization code flow: the identity provider authorizes wallets for the credential
 * issuer, which introspects their tokens with its own client there (the link, below).
 */
function walletFlowEnv(name) {
  if (!issuerLink) return {};
  if (name === 'identity-provider') return issuerLink.settings.identity_provider;
  if (name !== 'credential-issuer') return {};
  return {
    ...issuerLink.settings.credential_issuer,
    AUTHORIZATION_SERVER_CLIENT_SECRET: issuerLink.clientSecret,
    ...(issuerLink.approvalEvents ? { AUTHORIZATION_SERVER_WEBHOOK_SECRET: issuerLink.approvalEvents.secret } : {}),
  };
}

/**
 * The identity provider and the credential issuer are one deployment, linked on every start,
 * seeded or not (the admin CLI's issuer:link): the first start makes the issuer's client at the
 * identity provider, its organization and its endpoint for the wallet_approval.* events (at the
 * issuer's /authorization-server/events); later ones find them. On demo data the client is the
 * demo's "Credential issuer" (its secret in demo.json). Otherwise its secret is generated once and
 * kept with the other generated secrets (.data/credential-issuer-client-secret), and made the
 * client's again where the database holds another (a database reset, another DATABASE_URL): the
 * database keeps only its hash. The events endpoint only where the identity provider may deliver
 * there (WEBHOOK_ALLOW_PRIVATE_TARGETS, or an https issuer). A link that cannot be made (its client
 * revoked, say) leaves the two unlinked, said in one line.
 */
async function linkIssuer(url, demo) {
  const [idp, issuer] = ['identity-provider', 'credential-issuer'].map((wanted) => publicUrl(services.find((s) => s.name === wanted)));
  const adopted = demo?.clients.credential_issuer;
  const input = {
    issuerUrl: issuer,
    authorizationServerUrl: idp,
    ...(adopted ? { clientId: adopted.client_id, organization: demo.organization.id } : {}),
    clientSecret: adopted?.client_secret ?? localSecret('credential-issuer-client-secret'),
    rotateClientSecret: true,
    approvalEvents: webhookTargets === 'true' || issuer.startsWith('https:'),
  };
  const db = createPrismaClient(url, { poolSize: 2 });
  try {
    const link = await linkCredentialIssuer({ db, now: () => new Date() }, input);
    if (link.made.includes('client')) say(`linked the credential issuer to the identity provider (its client ${link.clientId})`);
    return { ...link, settings: issuerLinkSettings(link, input) };
  } catch (err) {
    say(`the credential issuer runs unlinked from the identity provider: ${err.message}`);
    return undefined;
  } finally {
    await db.$disconnect();
  }
}

/** What production's identity provider knows of the sandbox, and who may sign up. */
function productionIdpEnv() {
  return {
    ...(sandboxDatabase ? { SANDBOX_BASE_URL: publicUrl(sandbox) } : {}),
    // Anyone may open a developer account on local demo data; a real deployment invites (docs/sandbox.md).
    CONSOLE_SIGNUP: env.CONSOLE_SIGNUP ?? (demo ? 'open' : ''),
  };
}

/** The sandbox identity provider: its own database, secrets and signing keys, nothing of production's. */
function sandboxEnv() {
  return {
    ...env,
    SVC_ENVIRONMENT: 'sandbox',
    PORT: String(sandbox.port),
    DATABASE_URL: sandboxDatabase.url,
    // A replica of production's database is none of the sandbox's: its lists read its own primary.
    DATABASE_READ_URL: '',
    IDP_SECRET: env.SANDBOX_IDP_SECRET ?? localSecret('sandbox-idp-secret'),
    IDP_SIGNING_KEY_KEK: env.SANDBOX_IDP_SIGNING_KEY_KEK ?? localSecret('sandbox-idp-signing-key-kek'),
    PAIRWISE_SECRET: env.SANDBOX_PAIRWISE_SECRET ?? localSecret('sandbox-pairwise-secret'),
    ACTION_NULLIFIER_SECRET: env.SANDBOX_ACTION_NULLIFIER_SECRET ?? localSecret('sandbox-action-nullifier-secret'),
    ISSUER_SIGNING_KEY_KEK: '',
    CONSOLE_SIGNUP: '',
    LOG_LEVEL: env.LOG_LEVEL ?? 'info',
    LOG_REQUESTS: env.LOG_REQUESTS ?? 'all',
    PUBLIC_URL: publicUrl(sandbox),
    PRODUCTION_BASE_URL: publicUrl(services[0]),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: webhookTargets,
  };
}

/**
 * The sandbox's database: SANDBOX_DATABASE_URL, or production's name with `_sandbox` on the same
 * server (in the embedded cluster, or beside DATABASE_URL's), created and migrated here. Where it
 * cannot be made (a role without CREATEDB, say), everything else starts without the sandbox.
 */
async function openSandboxDatabase() {
  const url = env.SANDBOX_DATABASE_URL ?? sandboxDatabaseUrl(database.url);
  try {
    if (!env.SANDBOX_DATABASE_URL) await ensureDatabaseExists(url);
    await migrate(url);
    // Each database says which environment it serves, so neither service starts on the other's:
    // production's first (where this login may mark it), so a sandbox URL naming it is refused.
    await markDatabaseEnvironment(database.url, 'production').catch(() => undefined);
    await markDatabaseEnvironment(url, 'sandbox');
    return { url };
  } catch (err) {
    say(`the sandbox does not start: its database ${new URL(url).pathname.slice(1)} could not be prepared (${err.message}); set SANDBOX_DATABASE_URL`);
    return undefined;
  }
}

/** Ready when this launcher's own child answers /ready (a child that exited cannot be). */
async function waitReady({ name, port }, child) {
  let last = 'no answer';
  const probe = async () => {
    if (child.process.exitCode !== null || child.process.signalCode !== null) throw new Error(`${name} exited while starting`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/ready`);
      if (res.ok) return true;
      last = `${res.status} ${await res.text()}`;
    } catch (err) {
      last = err.cause?.code ?? err.message;
    }
    return false;
  };
  await waitFor(probe, 60_000, `${name} to be ready (last answer: ${last})`).catch((err) => {
    throw new Error(err.message.startsWith('timed out') ? `${name} was not ready within 60 s: ${last}` : err.message);
  });
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
