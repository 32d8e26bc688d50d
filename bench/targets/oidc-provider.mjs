// Baseline: node oidc-provider issuing RS256 JWT access tokens for a client_credentials grant.
import { generateKeyPairSync } from 'node:crypto';
import Provider from 'oidc-provider';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'bench', alg: 'RS256', use: 'sig' };
const port = Number(process.env.PORT);
const provider = new Provider(`http://127.0.0.1:${port}`, {
  clients: [
    { client_id: 'bench', client_secret: 'bench-secret-bench-secret-bench-secret', grant_types: ['client_credentials'], redirect_uris: [], response_types: [] },
  ],
  jwks: { keys: [jwk] },
  ttl: { ClientCredentials: 600 },
  features: {
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => 'https://api.bench.example',
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: 'api', accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
    },
  },
});
provider.listen(port, '127.0.0.1', () => process.send?.('ready'));
