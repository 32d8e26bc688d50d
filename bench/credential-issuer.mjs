// Credentials issued per second through POST /credentials/issue (5 and 50 claims, concurrent
// clients) beside the library's raw single-thread bbs-2023 signing, both measured in this run.
//   npm run --silent -w @svc/bench credential-issuer [-- --seconds 8 --connections 8]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { claimsOf, SUBJECT } from './credential-claims.mjs';
import { issuerBench, startTarget } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** The unmodified libraries' rate on one thread, in a process of their own. */
function rawPerSecond(claimCount) {
  return Number(execFileSync(process.execPath, [here('./targets/raw-bbs.mjs'), String(claimCount), String(seconds)]).toString());
}

const { database, token } = await issuerBench();

const rows = [];
for (const claimCount of [5, 50]) {
  const raw = await rawPerSecond(claimCount);
  const target = await startTarget(here('../apps/credential-issuer/dist/server.js'), { DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  try {
    const result = await autocannon({
      url: `${target.url}/credentials/issue`,
      method: 'POST',
      connections,
      duration: seconds,
      headers: { 'content-type': 'application/json', 'x-api-token': token },
      body: JSON.stringify({ subject_address: SUBJECT, claims: claimsOf(claimCount) }),
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} non-2xx answers`);
    rows.push({ claimCount, raw, endpoint: result.requests.total / seconds, p99: result.latency.p99 });
  } finally {
    await target.stop();
  }
}
await database.close();
console.log(`\ncredential-issuer: bbs-2023 issuance, ${connections} connections, ${seconds} s each (${new Date().toISOString()})`);
console.log(`${'claims'.padEnd(8)}${'raw library, 1 thread /s'.padStart(26)}${'endpoint /s'.padStart(14)}${'p99 ms'.padStart(9)}${'× raw'.padStart(8)}`);
for (const r of rows)
  console.log(
    `${String(r.claimCount).padEnd(8)}${r.raw.toFixed(1).padStart(26)}${r.endpoint.toFixed(1).padStart(14)}${String(r.p99).padStart(9)}${(r.endpoint / r.raw).toFixed(2).padStart(8)}`,
  );
