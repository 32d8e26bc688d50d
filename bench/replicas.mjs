// How throughput scales from one replica to two behind the same PostgreSQL (and Redis when
// REDIS_URL is set): GET /v2/userinfo on the identity provider and GET /v1/human/verify on
// wallet-verify, each replica a separate process. The same 50 connections are split over the
// replicas (25 each, two load generators at once); Express hello-world, one and two processes, is
// the yardstick measured in the same run. Everything shares this machine's cores, so the figure is
// what a second process buys here, not what a second machine would.
//   npm run --silent -w @svc/bench replicas [-- --seconds 8]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createFixture, issueTokens, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, startTarget, walletFixture } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const connections = 50;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const database = await benchDatabase();
const fixture = await createFixture(database.url);
const { wallet, key } = await walletFixture(database.url);

/** `connections` split over `urls`, loaded at once: the summed rate and the worst p99. */
async function loadSplit(urls, headers) {
  const each = Math.floor(connections / urls.length);
  const warm = urls.map((url) => autocannon({ url, connections: each, duration: 2, headers }));
  await Promise.all(warm);
  const results = await Promise.all(urls.map((url) => autocannon({ url, connections: each, duration: seconds, headers })));
  const bad = results.reduce((n, r) => n + r.non2xx + r.errors, 0);
  return { rps: results.reduce((n, r) => n + r.requests.average, 0), p99: Math.max(...results.map((r) => r.latency.p99)), bad };
}

async function scaling(name, start, path, headers) {
  const rows = [];
  for (const replicas of [1, 2]) {
    const targets = [];
    for (let i = 0; i < replicas; i++) targets.push(await start());
    try {
      const url = (t) => (typeof path === 'function' ? path(t) : t.url + path);
      rows.push({ name: `${name}, ${replicas} replica${replicas > 1 ? 's' : ''}`, ...(await loadSplit(targets.map(url), headers(targets[0]))) });
    } finally {
      await Promise.all(targets.map((t) => t.stop()));
    }
  }
  return rows;
}

const hello = await scaling(
  'express hello-world',
  () => startTarget(here('./targets/express-hello.mjs')),
  '/v1/human/verify',
  () => ({}),
);
let access;
const userinfo = await scaling(
  'identity-provider GET /v2/userinfo',
  async () => {
    // Replicas share one issuer identifier, as behind a load balancer.
    const target = await startIdentityProvider(database.url, { PUBLIC_URL: 'http://idp.bench.example', MAIL_OUTBOX: 'local' });
    access ??= (await issueTokens(target.url, fixture, 1))[0].access_token;
    return target;
  },
  '/v2/userinfo',
  () => ({ authorization: `Bearer ${access}` }),
);
const verify = await scaling(
  `wallet-verify (${process.env.REDIS_URL ? 'Redis' : 'in-process'} limiter)`,
  () => startTarget(here('../apps/wallet-verify/dist/server.js'), { DATABASE_URL: database.url, LOG_LEVEL: 'warn' }),
  `/v1/human/verify?wallet_address=${wallet}`,
  () => ({ 'X-SVC-API-Key': key }),
);
await database.close();

console.log(`\nreplicas: ${connections} connections split over the replicas, ${seconds} s each (${new Date().toISOString()})`);
console.log(`${'target'.padEnd(52)}${'req/s'.padStart(8)}${'p99 ms'.padStart(8)}${'× 1 replica'.padStart(13)}${'× hello (same count)'.padStart(22)}`);
for (const [i, group] of [hello, userinfo, verify].entries()) {
  for (const [j, r] of group.entries()) {
    const vsHello = (r.rps / hello[j].rps).toFixed(2);
    console.log(
      `${r.name.padEnd(52)}${r.rps.toFixed(0).padStart(8)}${String(r.p99).padStart(8)}${(r.rps / group[0].rps).toFixed(2).padStart(13)}${(i === 0 ? '1.00' : vsHello).padStart(22)}${r.bad ? `  (${r.bad} non-2xx)` : ''}`,
    );
  }
}
