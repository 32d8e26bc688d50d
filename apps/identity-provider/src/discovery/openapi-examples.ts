import type { OperationExample } from '@svc/http';
import { BASE, SANDBOX_BASE } from '../example-values.js';
import { openidConfiguration, protectedResourceMetadata, svcConfiguration } from './discovery.js';

// The production guide's discovery examples, in page order. The answers are the documents the
// service computes (discovery.ts), at the base the guides use, so they cannot drift from what it
// serves.
const shortened = (config: ReturnType<typeof svcConfiguration>) => ({
  ...config,
  scopes_catalog: config.scopes_catalog.slice(0, 2),
  presets_available: config.presets_available.slice(0, 2),
});

export const DISCOVERY_EXAMPLES: Record<string, OperationExample[]> = {
  'GET /.well-known/openid-configuration': [
    {
      summary: 'OpenID Connect discovery',
      status: 200,
      response: openidConfiguration(BASE, 'production'),
    },
  ],
  'GET /.well-known/svc-configuration': [
    {
      summary: 'this service’s own discovery document',
      status: 200,
      // Shortened: the real answer lists every scope and all 42 presets.
      response: shortened(
        svcConfiguration(
          BASE,
          `${BASE}/v2`,
          { limit: 600, unit: 'minute', perGrant: 60, perSource: 150 },
          { environment: 'production', baseUrls: { production: BASE, sandbox: SANDBOX_BASE } },
        ),
      ),
    },
  ],
  'GET /.well-known/oauth-protected-resource/v2': [
    {
      summary: 'RFC 9728 metadata of the data API',
      status: 200,
      response: protectedResourceMetadata(BASE, `${BASE}/v2`),
    },
  ],
  'GET /.well-known/jwks.json': [
    {
      summary: 'the token signing keys',
      status: 200,
      response: {
        keys: [
          {
            kty: 'RSA',
            kid: '-YLGS7lcz0yeiaHMPTE1l4dZ8ApbftGtwO_AIAzoZkg',
            alg: 'RS256',
            use: 'sig',
            n: 'pniFysU00E9qhHCjIfN7yFVWJpB_YUVhMTZzxMQ6…',
            e: 'AQAB',
          },
        ],
      },
    },
  ],
};
