// Token issuance (refresh grant, client user-token), GET /v2/userinfo and an action's proof, 50 connections each,
// beside an Express handler that only parses the form and node oidc-provider issuing RS256 JWT
// access tokens for client_credentials and for its own refresh grant (rotation, id_token), all
// measured in this run.
//   npm run --silent -w @svc/bench identity-provider [-- --seconds 8]
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { createFixture, issueTokens, SCOPE, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, helloWorlds, oidcProviderRefreshRequests, refreshGrantRequests, startTarget } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' } } });
const seconds = Number(values.seconds);
const connections = 50;
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const database = await benchDatabase();
const fixture = await createFixture(database.url);
const { user, client, basicAuth } = fixture;

async function load(url, options) {
  const result = await autocannon({ url, connections, duration: seconds, ...options });
  // Reported, not thrown: a throw here would leave the target running.
  return { rps: result.requests.average, p99: result.latency.p99, bad: result.non2xx + result.errors };
}

const OIDC_CREDENTIALS = 'oidc-provider: client_credentials JWT';
const OIDC_REFRESH = 'oidc-provider: refresh grant';
const rows = [];
const [hello, helloSvc] = await helloWorlds(async (name, url) => ({ name, ...(await load(url, {})) }));
const stage = (s) => process.stderr.write(`[bench] ${s}\n`);
{
  const target = await startTarget(here('./targets/express-form.mjs'));
  rows.push({
    name: 'express: parse form, answer JSON',
    ...(await load(`${target.url}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })),
  });
  await target.stop();
}
{
  const target = await startTarget(here('./targets/oidc-provider.mjs'));
  rows.push({
    name: OIDC_CREDENTIALS,
    ...(await load(`${target.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('bench:bench-secret-bench-secret-bench-secret').toString('base64')}`,
      },
      body: 'grant_type=client_credentials&scope=api',
    })),
  });
  stage('oidc-provider: refresh grant');
  rows.push({
    name: OIDC_REFRESH,
    versus: OIDC_REFRESH,
    ...(await load(`${target.url}/token`, { requests: await oidcProviderRefreshRequests(target.url, connections * 2) })),
  });
  await target.stop();
}
{
  const target = await startIdentityProvider(database.url);
  const issuer = target.url;
  // The refresh grant of an OpenID Connect grant (a new id_token: two RSA signatures per answer),
  // and of a grant without `openid` (none: one signature), to show the id_token's share.
  for (const [name, scope] of [
    ['identity-provider: refresh grant', SCOPE],
    ['identity-provider: refresh, no id_token', SCOPE.replace('openid ', '')],
  ]) {
    stage(`making refresh tokens (${scope})`);
    const pool = (await issueTokens(issuer, fixture, connections * 2, scope)).map((t) => t.refresh_token);
    stage(name);
    rows.push({ name, versus: OIDC_REFRESH, ...(await load(`${issuer}/oauth/token`, { requests: refreshGrantRequests(pool, basicAuth) })) });
  }
  rows.push({
    name: 'identity-provider: client user-token',
    ...(await load(`${issuer}/oauth/client/user-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.client_id, client_secret: client.client_secret, email: user.email }),
    })),
  });
  const access = (await issueTokens(issuer, fixture, 1))[0].access_token;
  rows.push({ name: 'identity-provider: GET /v2/userinfo', ...(await load(`${issuer}/v2/userinfo`, { headers: { authorization: `Bearer ${access}` } })) });
  // One person proving one action again and again: every proof increments the same row, under its
  // lock, with its action.proved event: the worst case of the count, not a crowd of voters.
  rows.push({
    name: 'identity-provider: POST action proof',
    ...(await load(`${issuer}/v2/actions/${fixture.action}/proofs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access}`, 'content-type': 'application/json' },
      body: JSON.stringify({ signal: 'yes' }),
    })),
  });
  await target.stop();
}
await database.close();
const base = rows[0].rps;
// Each row over oidc-provider doing the same work: the refresh rows over its refresh grant, the
// others over its client_credentials (one signature an answer, as the user-token).
const oidcRps = (r) => rows.find((o) => o.name === (r.versus ?? OIDC_CREDENTIALS)).rps;
rows.unshift(hello, helloSvc);
console.log(`\nidentity-provider: ${connections} connections, ${seconds} s each (${new Date().toISOString()})`);
console.log(
  `${'target'.padEnd(40)}${'req/s'.padStart(8)}${'p99 ms'.padStart(8)}${'× express form'.padStart(16)}${'× oidc-provider'.padStart(17)}${'× hello'.padStart(9)}`,
);
for (const r of rows)
  console.log(
    `${r.name.padEnd(40)}${r.rps.toFixed(0).padStart(8)}${String(r.p99).padStart(8)}${(r.rps / base).toFixed(2).padStart(16)}${(r.rps / oidcRps(r)).toFixed(2).padStart(17)}${(r.rps / hello.rps).toFixed(2).padStart(9)}${r.bad ? `  (${r.bad} non-2xx)` : ''}`,
  );
console.log('× oidc-provider: the refresh rows over its refresh grant, the others over its client_credentials.');
