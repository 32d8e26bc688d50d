// Bounded load from this process with autocannon, every answer's status counted.
import autocannon from 'autocannon';
import { authorizeThroughApi } from '@svc/testkit';

/** What each service is loaded with: a realistic mix of its endpoints, with valid credentials. */
export async function loadTargets(env) {
  const { demo, services } = env;
  const idp = services['identity-provider'].url;
  const user = demo.users.palm_verified;
  const client = demo.clients.confidential;
  const [token] = await authorizeThroughApi(
    idp,
    { email: user.email, password: user.password },
    { clientId: client.client_id, clientSecret: client.client_secret, redirectUri: client.redirect_uri },
    client.scopes,
  );
  const bearer = { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' };
  const json = { 'content-type': 'application/json' };
  return [
    {
      name: 'identity-provider',
      url: idp,
      connections: 8,
      requests: [
        { method: 'GET', path: '/v2/userinfo', headers: bearer },
        {
          method: 'POST',
          path: '/v2/presets/batch',
          headers: bearer,
          body: JSON.stringify({ presets: ['age_over_18', 'nationality', 'kyc_passed', 'is_human', 'email', 'net_worth_above_10k'] }),
        },
        {
          method: 'POST',
          path: '/v2/queries/evaluate',
          headers: bearer,
          body: JSON.stringify({
            query: {
              policy: {
                allOf: [
                  { claim: 'age', operator: '>=', value: 18 },
                  { claim: 'kyc_passed', operator: '==', value: true },
                ],
              },
            },
          }),
        },
        {
          method: 'POST',
          path: '/oauth/client/user-token',
          headers: json,
          body: JSON.stringify({ client_id: client.client_id, client_secret: client.client_secret, email: user.email }),
        },
      ],
    },
    {
      name: 'wallet-verify',
      url: services['wallet-verify'].url,
      connections: 8,
      requests: [{ method: 'GET', path: `/v1/human/verify?wallet_address=${user.wallets[0]}`, headers: { 'x-svc-api-key': demo.api_keys.wallet_verify.key } }],
    },
    {
      name: 'credential-issuer',
      url: services['credential-issuer'].url,
      // BBS signing takes a few hundred ms on one thread: a trickle, not a flood.
      connections: 2,
      requests: [
        {
          method: 'POST',
          path: '/credentials/issue',
          headers: { ...json, 'x-api-token': demo.api_keys.credential_issuer.key },
          body: JSON.stringify({ subject_address: user.wallets[0], claims: { kyc_passed: true, tier: 2 } }),
        },
      ],
    },
  ];
}

/** Loads every target at once for `seconds`; per target: requests, req/s and the count of each status. */
export async function loadAll(targets, seconds) {
  return Promise.all(
    targets.map(async (t) => {
      const result = await autocannon({ url: t.url, connections: t.connections, duration: seconds, requests: t.requests, timeout: 10 });
      const statuses = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
      return { name: t.name, requests: result.requests.total, rps: result.requests.average, statuses, errors: result.errors, timeouts: result.timeouts };
    }),
  );
}

export const count = (statuses, predicate) => Object.entries(statuses).reduce((n, [code, c]) => n + (predicate(Number(code)) ? c : 0), 0);

export const describeStatuses = (statuses) =>
  Object.entries(statuses)
    .map(([code, c]) => `${code}×${c}`)
    .join(' ');
