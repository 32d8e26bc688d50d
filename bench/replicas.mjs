// How throughput scales from one replica to two behind a load balancer (HAProxy, balancer.mjs),
// all sharing one PostgreSQL (and Redis when REDIS_URL is set): GET /v2/userinfo on the identity
// provider, GET /v1/human/verify on wallet-verify and the credential issuer's metadata, each replica
// a separate process. One load generator with 50 connections calls the balancer, as clients call a
// deployment; one replica called directly shows what the balancer itself costs. Express
// hello-world, the same ways, is the yardstick measured in the same run. Everything shares this
// machine's two cores (the balancer too), so the figure is what a second process buys here, not
// what a second machine would.
//   npm run --silent -w @svc/bench replicas [-- --seconds 8]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createFixture, issueTokens, startIdentityProvider } from './idp-fixture.mjs';
import { startBalancer } from './balancer.mjs';
import { benchDatabase, startTarget, walletFixture } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const connections = 50;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const database = await benchDatabase();
const fixture = await createFixture(database.url);
const { wallet, key } = await walletFixture(database.url);

async function measure(url, headers) {
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

/** One replica called directly, then one and two behind the balancer. */
async function scaling(name, start, path, headers) {
  const rows = [];
  for (const [replicas, balanced] of [
    [1, false],
    [1, true],
    [2, true],
  ]) {
    const targets = [];
    for (let i = 0; i < replicas; i++) targets.push(await start());
    const balancer = balanced ? await startBalancer(targets.map((t) => t.url)) : undefined;
    try {
      const how = balanced ? `${replicas} replica${replicas > 1 ? 's' : ''} behind haproxy` : '1 replica, direct';
      rows.push({ name: `${name}, ${how}`, ...(await measure((balancer ?? targets[0]).url + path, headers())) });
    } finally {
      await balancer?.stop();
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
const issuer = await scaling(
  'credential-issuer metadata',
  () =>
    startTarget(here('../apps/credential-issuer/dist/server.js'), { DATABASE_URL: database.url, LOG_LEVEL: 'warn', PUBLIC_URL: 'http://issuer.bench.example' }),
  '/.well-known/openid-credential-issuer',
  () => ({}),
);
await database.close();

console.log(`\nreplicas: ${connections} connections, ${seconds} s each, Node.js ${process.versions.node} (${new Date().toISOString()})`);
console.log(`${'target'.padEnd(62)}${'req/s'.padStart(8)}${'p99 ms'.padStart(8)}${'× direct'.padStart(10)}${'× hello (same way)'.padStart(20)}`);
for (const [i, group] of [hello, userinfo, verify, issuer].entries()) {
  for (const [j, r] of group.entries()) {
    const vsHello = (r.rps / hello[j].rps).toFixed(2);
    console.log(
      `${r.name.padEnd(62)}${r.rps.toFixed(0).padStart(8)}${String(r.p99).padStart(8)}${(r.rps / group[0].rps).toFixed(2).padStart(10)}${(i === 0 ? '1.00' : vsHello).padStart(20)}${r.bad ? `  (${r.bad} non-2xx)` : ''}`,
    );
  }
}
