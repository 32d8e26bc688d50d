// Baseline: node oidc-provider issuing RS256 JWT access tokens for a client_credentials grant, and
// for its refresh grant the same work as ours: the refresh token rotated, an RS256 JWT access
// token and an RS256 id_token, on its in-memory adapter (the default).
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' };
const port = Number(process.env.PORT);
const RESOURCE = 'https://api.bench.example';
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    { client_id: 'bench', client_secret: 'bench-secret-bench-secret-bench-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
    {
      client_id: 'bench-rp',
      client_secret: 'bench-secret-bench-secret-bench-secret',
      grant_types: ['authorization_code', 'refresh_token'],
      redirect_uris: ['https://bench.example/callback'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  jwks: { keys: [jwk] },
  // The defaults rotate a refresh token only once 70% of its life has passed; ours rotates on every use.
  rotateRefreshToken: true,
  // Set rather than left to the defaults, which log that they should be changed.
  ttl: { ClientCredentials: 600, AccessToken: 600, IdToken: 600, RefreshToken: 30 * 86_400, Grant: 30 * 86_400 },
  // No claims beyond `sub`: the id_token is signed, not filled.
  findAccount: (_ctx, accountId) => ({ accountId, claims: () => ({ sub: accountId }) }),
  features: {
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'api', accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
    },
  },
});

const SCOPE = 'openid offline_access api';
/**
 * One live refresh token, as if a person had signed in and consented: a saved grant and a token
 * on it, made through the provider's models (its sign-in and consent pages are not what is measured).
 */
async function mintRefreshToken(client, accountId) {
  const grant = new provider.Grant({ accountId, clientId: client.clientId });
  grant.addOIDCScope('openid offline_access');
  grant.addResourceScope(RESOURCE, 'api');
  const grantId = await grant.save();
  const token = new provider.RefreshToken({
    accountId,
    client,
    grantId,
    scope: SCOPE,
    gty: 'authorization_code',
    authTime: Math.floor(Date.now() / 1000),
    resource: RESOURCE,
  });
  return token.save();
}

// Bench only: `POST /bench/refresh-tokens?count=N` answers N fresh refresh tokens of bench-rp.
provider.use(async (ctx, next) => {
  if (ctx.method !== 'POST' || ctx.path !== '/bench/refresh-tokens') return next();
  const client = await provider.Client.find('bench-rp');
  const count = Number(ctx.query.count ?? 1);
  ctx.body = await Promise.all(Array.from({ length: count }, (_, i) => mintRefreshToken(client, `bench-person-${i}`)));
});

provider.listen(port, '127.0.0.1', () => process.send?.('ready'));
