// Where a token request's CPU goes, in CPU milliseconds per answered request: the target process
// (its event loop and thread pool together), PostgreSQL's processes and the load generator, read
// from /proc around the same load. On a machine where the load generator, the service and the
// database share the cores, req/s is bounded by cores ÷ the sum of these.
//   npm run --silent -w @svc/bench cpu-budget [-- --seconds 8]
import { generateKeyPairSync, sign } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createFixture, issueTokens, SCOPE, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, startTarget } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const TICK_MS = 10;

/** utime + stime of a process, its threads included, in clock ticks. */
function ticks(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
/**
 * The same, by the process's threads: the event loop (the thread whose id is the process's),
 * libuv's thread pool (node:crypto's signatures with a callback run there; Node.js 22 and later
 * name its threads libuv-worker) and every other thread (V8's collector and compiler, node's own).
 * Threads that ended are not counted; the pool's live as long as the process.
 */
function threadTicks(pid) {
  const split = { loop: 0, pool: 0, other: 0 };
  let tasks = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return split;
  }
  for (const tid of tasks) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const used = Number(fields[11]) + Number(fields[12]);
      split[tid === String(pid) ? 'loop' : name === 'libuv-worker' ? 'pool' : 'other'] += used;
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return split;
}
const postgresTicks = () =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .reduce((sum, pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres') ? sum + ticks(pid) : sum;
      } catch {
        return sum;
      }
    }, 0);

async function measure(name, target, options) {
  await autocannon({ ...options, connections: 50, duration: 2 });
  const before = { target: ticks(target.pid), threads: threadTicks(target.pid), postgres: postgresTicks(), generator: ticks(process.pid) };
  const result = await autocannon({ ...options, connections: 50, duration: seconds });
  const per = (t) => (t * TICK_MS) / result.requests.total;
  const threads = threadTicks(target.pid);
  return {
    name,
    rps: result.requests.average,
    target: per(ticks(target.pid) - before.target),
    loop: per(threads.loop - before.threads.loop),
    pool: per(threads.pool - before.threads.pool),
    other: per(threads.other - before.threads.other),
    postgres: per(postgresTicks() - before.postgres),
    generator: per(ticks(process.pid) - before.generator),
    bad: result.non2xx + result.errors,
  };
}

const rows = [];
{
  const target = await startTarget(here('./targets/express-hello.mjs'));
  rows.push(await measure('express hello-world', target, { url: `${target.url}/v1/human/verify` }));
  await target.stop();
}
{
  const target = await startTarget(here('./targets/oidc-provider.mjs'));
  const basic = `Basic ${Buffer.from('bench:bench-secret-bench-secret-bench-secret').toString('base64')}`;
  rows.push(
    await measure('oidc-provider client_credentials', target, {
      url: `${target.url}/token`,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic },
      body: 'grant_type=client_credentials&scope=api',
    }),
  );
  await target.stop();
}
const database = await benchDatabase();
const fixture = await createFixture(database.url);
{
  const target = await startIdentityProvider(database.url);
  await issueTokens(target.url, fixture, 1);
  rows.push(
    await measure('identity-provider client user-token', target, {
      url: `${target.url}/oauth/client/user-token`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: fixture.client.client_id, client_secret: fixture.client.client_secret, email: fixture.user.email }),
    }),
  );
  // With an id_token (two RSA signatures an answer) and without (a grant without openid: one).
  for (const [name, scope] of [
    ['identity-provider refresh grant', SCOPE],
    ['identity-provider refresh, no id_token', SCOPE.replace('openid ', '')],
  ]) {
    const pool = (await issueTokens(target.url, fixture, 100, scope)).map((t) => t.refresh_token);
    rows.push(
      await measure(name, target, {
        url: `${target.url}/oauth/token`,
        requests: [
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: fixture.basicAuth },
            setupRequest: (req) => ({
              ...req,
              body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: pool.shift() ?? 'svcrt_pool_empty' }).toString(),
            }),
            onResponse: (status, body) => {
              if (status === 200) pool.push(JSON.parse(body).refresh_token);
            },
          },
        ],
      }),
    );
  }
  await target.stop();
}
await database.close();

console.log(
  `\nCPU ms per answered request, 50 connections, ${seconds} s, ${cpus().length} cores, Node.js ${process.versions.node} (${new Date().toISOString()})`,
);
// The target's figure split by thread: event loop, libuv's pool, the other threads.
console.log(
  `${'target'.padEnd(38)}${'req/s'.padStart(8)}${'target'.padStart(9)}${'(loop'.padStart(8)}${'pool'.padStart(7)}${'other)'.padStart(7)}${'postgres'.padStart(10)}${'load gen'.padStart(10)}${'sum'.padStart(8)}`,
);
for (const r of rows) {
  const sum = r.target + r.postgres + r.generator;
  const split = [r.loop, r.pool, r.other].map((v, i) => v.toFixed(3).padStart(i === 0 ? 8 : 7)).join('');
  console.log(
    `${r.name.padEnd(38)}${r.rps.toFixed(0).padStart(8)}${r.target.toFixed(3).padStart(9)}${split}${r.postgres.toFixed(3).padStart(10)}${r.generator.toFixed(3).padStart(10)}${sum.toFixed(3).padStart(8)}${r.bad ? `  (${r.bad} non-2xx)` : ''}`,
  );
}

// The floor under any RS256 token: one 2048-bit RSA signature, whichever thread makes it.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const payload = Buffer.alloc(400, 1);
const started = process.cpuUsage();
for (let i = 0; i < 500; i++) sign('sha256', payload, privateKey);
const used = process.cpuUsage(started);
console.log(`one RS256 signature (2048-bit RSA, node:crypto): ${((used.user + used.system) / 1000 / 500).toFixed(3)} CPU ms`);
