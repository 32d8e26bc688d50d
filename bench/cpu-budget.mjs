// Where a token request's CPU goes, in CPU milliseconds per answered request (cpu.mjs): the
// target's threads, PostgreSQL, Redis and the load generator, beside oidc-provider's grants
// (client_credentials, and its refresh grant for ours).
//   npm run --silent -w @svc/bench cpu-budget [-- --seconds 8] [--profile DIR: the identity provider's V8 profile]
import { generateKeyPairSync, sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { measureCpu, printCpuTable, profiledIn } from './cpu.mjs';
import { createFixture, issueTokens, SCOPE, startIdentityProvider } from './idp-fixture.mjs';
import { benchDatabase, oidcProviderRefreshRequests, refreshGrantRequests, startTarget } from './lib.mjs';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '8' }, profile: { type: 'string' } } });
const seconds = Number(values.seconds);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const measure = (name, target, options) => measureCpu(name, target, options, seconds);

// Our refresh rows are set against oidc-provider's refresh grant (the same work), the others
// against its client_credentials.
const OIDC_REFRESH = 'oidc-provider refresh grant';
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
  const requests = await oidcProviderRefreshRequests(target.url, 100);
  rows.push({ ...(await measure(OIDC_REFRESH, target, { url: `${target.url}/token`, requests })), versus: OIDC_REFRESH });
  await target.stop();
}
const database = await benchDatabase();
const fixture = await createFixture(database.url);
{
  const target = await startIdentityProvider(database.url, profiledIn(values.profile));
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
    const requests = refreshGrantRequests(pool, fixture.basicAuth);
    rows.push({ ...(await measure(name, target, { url: `${target.url}/oauth/token`, requests })), versus: OIDC_REFRESH });
  }
  await target.stop();
}
await database.close();

printCpuTable(`CPU per token request, 50 connections, ${seconds} s`, rows, 'oidc-provider client_credentials');

// The floor under any RS256 token: one 2048-bit RSA signature, whichever thread makes it.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const payload = Buffer.alloc(400, 1);
const started = process.cpuUsage();
for (let i = 0; i < 500; i++) sign('sha256', payload, privateKey);
const used = process.cpuUsage(started);
console.log(`one RS256 signature (2048-bit RSA, node:crypto): ${((used.user + used.system) / 1000 / 500).toFixed(3)} CPU ms`);
