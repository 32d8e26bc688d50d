// The identity provider's data endpoints under 50 connections: a batch of 10 presets, one preset,
// and a nested query, beside an Express hello-world that parses the same JSON body, all measured
// in this run. Traffic stays on 127.0.0.1; every load is bounded in time. Uses DATABASE_URL /
// REDIS_URL when set, otherwise the embedded PostgreSQL under .data/bench and the in-process store.
//   npm run --silent -w @svc/bench presets [-- --seconds 8]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { batchBody, createFixture, issueTokens, queryBody, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, helloWorlds, startTarget } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const connections = 50;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

async function measure(name, url, options) {
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  return { name, rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

const database = await benchDatabase();
const fixture = await createFixture(database.url);
const rows = [];
const [hello, helloSvc] = await helloWorlds((name, url) => measure(name, url, {}));
{
  const target = await startTarget(here('./targets/express-json.mjs'));
  rows.push(
    await measure('express: parse JSON, answer JSON', `${target.url}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: batchBody,
    }),
  );
  await target.stop();
}
{
  const target = await startIdentityProvider(database.url);
  const [token] = await issueTokens(target.url, fixture, 1);
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` };
  await autocannon({ url: `${target.url}/v2/presets/batch`, connections, duration: 2, method: 'POST', headers, body: batchBody }); // warm-up
  rows.push(await measure('POST /v2/presets/batch (10)', `${target.url}/v2/presets/batch`, { method: 'POST', headers, body: batchBody }));
  rows.push(await measure('GET /v2/presets/age_over_18', `${target.url}/v2/presets/age_over_18`, { headers }));
  rows.push(await measure('POST /v2/queries/evaluate (5 checks)', `${target.url}/v2/queries/evaluate`, { method: 'POST', headers, body: queryBody }));
  await target.stop();
}
await database.close();

rows.unshift(hello, helloSvc);
const base = rows[2].rps;
console.log(
  `\ndata endpoints: ${connections} connections, ${seconds} s each, Redis: ${process.env.REDIS_URL ? 'yes' : 'no (in-process store)'} (${new Date().toISOString()})`,
);
console.log(`${'target'.padEnd(40)}${'req/s'.padStart(8)}${'p99 ms'.padStart(8)}${'× express json'.padStart(16)}${'× hello'.padStart(9)}`);
for (const r of rows)
  console.log(
    `${r.name.padEnd(40)}${r.rps.toFixed(0).padStart(8)}${String(r.p99).padStart(8)}${(r.rps / base).toFixed(2).padStart(16)}${(r.rps / hello.rps).toFixed(2).padStart(9)}${r.bad ? `  (${r.bad} non-2xx or errors)` : ''}`,
  );
if (rows.some((r) => r.bad)) process.exitCode = 1;
