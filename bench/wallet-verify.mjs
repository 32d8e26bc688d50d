// GET /v1/human/verify with a valid key under 50 connections, beside a bare node:http server and an
// Express hello-world returning a similar body, all measured in this run. Traffic stays on
// 127.0.0.1; every load is bounded in time. Uses DATABASE_URL/REDIS_URL when set, otherwise the
// embedded PostgreSQL under .data/bench and the in-process store.
//   npm run --silent -w @svc/bench wallet-verify [-- --seconds 10]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { benchDatabase, load, printTable, startTarget, walletFixture } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' } } });
const seconds = Number(values.seconds);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const database = await benchDatabase();
const { wallet, key } = await walletFixture(database.url);

const rows = [];
for (const [name, script, env, path, headers] of [
  ['bare node:http', here('./targets/bare-http.mjs'), {}, '/', {}],
  ['express hello-world', here('./targets/express-hello.mjs'), {}, '/v1/human/verify', {}],
  // Served the way the services are (createHttpServer): not a yardstick, a reading aid.
  ["express hello-world, services' server", here('./targets/express-hello.mjs'), { HELLO_SERVER: 'svc' }, '/v1/human/verify', {}],
  [
    `wallet-verify (${process.env.REDIS_URL ? 'Redis' : 'in-process'} limiter)`,
    here('../apps/wallet-verify/dist/server.js'),
    { DATABASE_URL: database.url, LOG_LEVEL: 'warn' },
    `/v1/human/verify?wallet_address=${wallet}`,
    { 'X-SVC-API-Key': key },
  ],
]) {
  const target = await startTarget(script, env);
  try {
    rows.push({ name, ...(await load(target.url + path, { seconds, headers })) });
  } finally {
    await target.stop();
  }
}
await database.close();
printTable(`wallet-verify: 200 answers, 50 connections, ${seconds} s each (${new Date().toISOString()})`, rows, 'express hello-world');
