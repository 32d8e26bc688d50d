// The hot paths' CPU per answered request, by thread (cpu.mjs), beside an Express 5 hello-world in
// the same run: wallet verify, user info, one preset, a batch of ten, a five-check query. With
// --profile DIR each service also writes a V8 CPU profile of its load there (open it in Chrome's
// DevTools, or summarise it with `node --cpu-prof` tooling of your choice).
//   npm run --silent -w @svc/bench hot-paths [-- --seconds 8] [--only verify,userinfo] [--profile DIR]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureCpu, printCpuTable, profiledIn } from './cpu.mjs';
import { batchBody, createFixture, issueTokens, queryBody, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, startTarget, walletFixture } from './lib.mjs';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '8' }, only: { type: 'string' }, profile: { type: 'string' } },
});
const seconds = Number(values.seconds);
const only = values.only?.split(',');
const wanted = (name) => !only || only.includes(name);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const profiled = profiledIn(values.profile);
const measure = (name, target, options) => measureCpu(name, target, options, seconds);

const database = await benchDatabase();
const fixture = await createFixture(database.url);
const { wallet, key } = await walletFixture(database.url);
const rows = [];
for (const [name, env] of [
  ['express hello-world', {}],
  ["express hello-world, services' server", { HELLO_SERVER: 'svc' }],
]) {
  const target = await startTarget(here('./targets/express-hello.mjs'), env);
  rows.push(await measure(name, target, { url: `${target.url}/v1/human/verify` }));
  await target.stop();
}
if (wanted('verify')) {
  const target = await startTarget(here('../apps/wallet-verify/dist/server.js'), { DATABASE_URL: database.url, LOG_LEVEL: 'warn', ...profiled });
  const url = `${target.url}/v1/human/verify?wallet_address=${wallet}`;
  rows.push(await measure('wallet-verify GET /v1/human/verify', target, { url, headers: { 'X-SVC-API-Key': key } }));
  await target.stop();
}
if (['userinfo', 'preset', 'batch', 'query'].some(wanted)) {
  const target = await startIdentityProvider(database.url, profiled);
  const [token] = await issueTokens(target.url, fixture, 1);
  const headers = { authorization: `Bearer ${token.access_token}` };
  const json = { ...headers, 'content-type': 'application/json' };
  for (const [id, name, options] of [
    ['userinfo', 'GET /v2/userinfo', { url: `${target.url}/v2/userinfo`, headers }],
    ['preset', 'GET /v2/presets/age_over_18', { url: `${target.url}/v2/presets/age_over_18`, headers }],
    ['batch', 'POST /v2/presets/batch (10)', { url: `${target.url}/v2/presets/batch`, method: 'POST', headers: json, body: batchBody }],
    ['query', 'POST /v2/queries/evaluate (5 checks)', { url: `${target.url}/v2/queries/evaluate`, method: 'POST', headers: json, body: queryBody }],
  ]) {
    if (wanted(id)) rows.push(await measure(name, target, options));
  }
  await target.stop();
}
await database.close();
printCpuTable(`hot paths, 50 connections, ${seconds} s each, Redis: ${process.env.REDIS_URL ? 'yes' : 'no'}`, rows, 'express hello-world');
if (rows.some((r) => r.bad)) process.exitCode = 1;
