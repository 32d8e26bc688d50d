// Shared by the bench scripts: start a target in its own process, load it, print side by side.
import { fork } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { createApiKey, createOrg, createUser, dataDir, ensureSigningKeys, openLocalDatabase } from '@svc/admin';
import { createPrismaClient } from '@svc/db';
import { freePort, isListening, waitFor } from '@svc/testkit/processes';
import autocannon from 'autocannon';
import { SignJWT } from 'jose';

// The bench database's signing keys are sealed under these KEKs, one per service; they must stay
// the same from run to run (bench only: a real deployment generates its own).
process.env.IDP_SIGNING_KEY_KEK ??= 'bench-idp-kek-0123456789abcdefghijklmnopqrstuv';
process.env.ISSUER_SIGNING_KEY_KEK ??= 'bench-issuer-kek-0123456789abcdefghijklmnopqrs';
process.env.PAIRWISE_SECRET ??= 'bench-pairwise-0123456789abcdefghijklmnopqrstu';
// Runs measure throughput, not limits: the platform maximum of a key's limits and each
// organization's budget are raised far above any run here (a deployment keeps its own), so the
// bench keys' 10 000 000 an hour hold.
process.env.API_KEY_MAX_HOURLY_LIMIT ??= '10000000';
process.env.API_KEY_MAX_BURST_LIMIT ??= '100000';
process.env.ORGANIZATION_HOURLY_LIMIT ??= '10000000';
process.env.ORGANIZATION_BURST_LIMIT ??= '100000';

/**
 * The bench database, and an API token that may issue credentials whose limits never cap a run
 * (the per-key limits are measured in tests), the issuer's signing keys made.
 */
export async function issuerBench(permissions = 'credentials:issue') {
  const database = await benchDatabase();
  const db = createPrismaClient(database.url);
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: `bench-${randomBytes(4).toString('hex')}@bench.example`, password: 'bench password' });
  const org = await createOrg(ctx, { name: 'Bench', ownerEmail: owner.email });
  const token = (await createApiKey(ctx, { org: org.id, permissions, hourlyLimit: 10_000_000, burstLimit: 100_000 })).key;
  await ensureSigningKeys(ctx);
  await db.$disconnect();
  return { database, token };
}

/** A palm-verified person's wallet and an API key allowed to verify it, limits out of a run's way. */
export async function walletFixture(databaseUrl) {
  const db = createPrismaClient(databaseUrl);
  const ctx = { db, now: () => new Date() };
  const wallet = '0x52908400098527886E0F7030069857D2E4169EE7';
  await db.wallet.deleteMany({ where: { address: wallet } });
  const owner = await createUser(ctx, {
    email: `bench-${randomBytes(4).toString('hex')}@bench.example`,
    password: 'bench password',
    wallets: [wallet],
    palmVerified: true,
  });
  const org = await createOrg(ctx, { name: 'Bench', ownerEmail: owner.email });
  const key = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify', hourlyLimit: 10_000_000, burstLimit: 100_000 });
  await db.$disconnect();
  return { wallet, key: key.key };
}

/** DATABASE_URL when set, otherwise the embedded PostgreSQL under .data/bench (started and migrated). */
export function benchDatabase() {
  return openLocalDatabase({ ...process.env, SVC_DATA_DIR: process.env.SVC_DATA_DIR ?? join(dataDir(), 'bench') });
}

// The same process helpers as the tests (packages/testkit/src/processes.ts).
export { freePort };

/** Forks `script` with PORT set and waits until `ready` answers 200 (or the script says 'ready'). */
export async function startTarget(script, env = {}) {
  const port = await freePort();
  const child = fork(script, [], { env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await waitFor(() => isListening(port), 30_000, `${script} to listen on ${port}`);
  return running(child, port);
}

/** A started child process listening on `port` of 127.0.0.1: its URL, its pid, and how to stop it. */
export function running(child, port) {
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The two hello-worlds every table shows: the yardstick every figure is divided by (Express's own
 * `app.listen`, so it compares with outside runs), and the same app served the way the services
 * are (createHttpServer), a reading aid rather than a yardstick. `measure(name, url)` loads one.
 */
export async function helloWorlds(measure) {
  const rows = [];
  for (const [name, env] of [
    ['express hello-world (one JSON object)', {}],
    ["express hello-world, services' server", { HELLO_SERVER: 'svc' }],
  ]) {
    const target = await startTarget(fileURLToPath(new URL('./targets/express-hello.mjs', import.meta.url)), env);
    try {
      rows.push(await measure(name, `${target.url}/v1/human/verify`));
    } finally {
      await target.stop();
    }
  }
  return rows;
}

/**
 * autocannon's `requests` for a refresh grant, ours or oidc-provider's, from `tokens`: a pool of
 * live refresh tokens, each request takes one and its answer puts the rotated one back, so no token
 * is ever presented twice (which would revoke its family, by design in both). `authorization`
 * authenticates the client.
 */
export function refreshGrantRequests(tokens, authorization) {
  const pool = [...tokens];
  return [
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization },
      setupRequest: (req) => ({ ...req, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: pool.shift() ?? 'pool_empty' }).toString() }),
      onResponse: (status, body) => {
        if (status === 200) pool.push(JSON.parse(body).refresh_token);
      },
    },
  ];
}

/** The same for oidc-provider (targets/oidc-provider.mjs) at `url`: `count` refresh tokens its bench route mints. */
export async function oidcProviderRefreshRequests(url, count) {
  const res = await fetch(`${url}/bench/refresh-tokens?count=${count}`, { method: 'POST' });
  if (!res.ok) throw new Error(`oidc-provider's refresh tokens: ${res.status} ${await res.text()}`);
  return refreshGrantRequests(await res.json(), `Basic ${Buffer.from('bench-rp:bench-secret-bench-secret-bench-secret').toString('base64')}`);
}

/** Bounded load: `connections` for `seconds`, after a short warm-up. Fails loudly on any non-2xx. */
export async function load(url, { connections = 50, seconds = 10, headers = {} } = {}) {
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers and ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

export function printTable(title, rows, baselineName) {
  const base = rows.find((r) => r.name === baselineName);
  console.log(`\n${title}`);
  console.log(`${'target'.padEnd(40)}${'req/s'.padStart(10)}${'p99 ms'.padStart(9)}${`× ${baselineName}`.padStart(28)}`);
  for (const r of rows) {
    console.log(`${r.name.padEnd(40)}${r.rps.toFixed(0).padStart(10)}${String(r.p99).padStart(9)}${(r.rps / base.rps).toFixed(2).padStart(28)}`);
  }
}

/**
 * The wallets' side of a credential-issuer bench: the issuer started on `database` with the
 * per-address allowances lifted (every wallet here calls from one address), `prepare(issuerId)` once
 * per wallet, one warm-up round, then every wallet looping `round(issuerId, wallet)` for `seconds`;
 * the issuer stopped and the database closed. Each round's milliseconds, sorted, with the rate and
 * the percentiles.
 */
export async function walletRounds({ database, connections, seconds, prepare, round }) {
  const target = await startTarget(fileURLToPath(new URL('../apps/credential-issuer/dist/server.js', import.meta.url)), {
    DATABASE_URL: database.url,
    LOG_LEVEL: 'warn',
    PUBLIC_URL: '',
    NONCES_PER_MINUTE: '1000000',
    WALLET_REQUESTS_PER_MINUTE: '1000000',
  });
  const durations = [];
  try {
    // PUBLIC_URL must be where the bench calls it: proofs and key bindings name the issuer's identifier.
    const issuerId = (await (await fetch(`${target.url}/.well-known/openid-credential-issuer`)).json()).credential_issuer;
    const wallets = await Promise.all(Array.from({ length: connections }, () => prepare(issuerId)));
    await round(issuerId, wallets[0]);
    const end = Date.now() + seconds * 1000;
    await Promise.all(
      wallets.map(async (wallet) => {
        while (Date.now() < end) {
          const started = performance.now();
          await round(issuerId, wallet);
          durations.push(performance.now() - started);
        }
      }),
    );
  } finally {
    await target.stop();
    await database.close();
  }
  durations.sort((a, b) => a - b);
  const p = (q) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))].toFixed(1);
  return { perSecond: durations.length / seconds, p50: p(0.5), p99: p(0.99) };
}

const PRE_AUTHORIZED = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/**
 * A wallet's pre-authorized code flow for one credential of `configuration` (an integrator's offer
 * with `token`, the wallet's token, nonce and credential requests: four requests), bound to
 * `holder` ({jwk, privateKey}) by a fresh ES256 proof; the credential.
 */
export async function receiveCredential(base, token, configuration, holder) {
  const call = async (path, init) => {
    const res = await fetch(`${base}${path}`, init);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const offer = await call('/credential-offers', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': token },
    body: JSON.stringify({ credential_configuration_id: configuration, claims: { age_over_18: true, age_over_21: true }, tx_code: false }),
  });
  const code = offer.credential_offer.grants[PRE_AUTHORIZED]['pre-authorized_code'];
  const { access_token } = await call('/token', { method: 'POST', body: new URLSearchParams({ grant_type: PRE_AUTHORIZED, 'pre-authorized_code': code }) });
  const { c_nonce } = await call('/nonce', { method: 'POST' });
  const proof = await new SignJWT({ aud: base, nonce: c_nonce, iat: Math.floor(Date.now() / 1000) })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: holder.jwk })
    .sign(holder.privateKey);
  const { credentials } = await call('/credential', {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credential_configuration_id: configuration, proofs: { jwt: [proof] } }),
  });
  return credentials[0].credential;
}
