import type { ApiSpec } from '@svc/http';
import { ZJwks, ZOpenIdConfiguration, ZProtectedResourceMetadata, ZServiceConfiguration } from '@svc/schemas';

/** Discovery: metadata and the key set. */
export const DISCOVERY_OPERATIONS: ApiSpec['operations'] = [
  {
    method: 'get',
    path: '/.well-known/openid-configuration',
    tag: 'Discovery',
    summary: 'OpenID Provider metadata',
    responses: { 200: { description: 'Metadata', schema: ZOpenIdConfiguration } },
  },
  {
    method: 'get',
    path: '/.well-known/svc-configuration',
    tag: 'Discovery',
    summary: 'Service configuration: endpoints, scopes, presets, rate limit',
    responses: { 200: { description: 'Configuration', schema: ZServiceConfiguration } },
  },
  {
    method: 'get',
    path: '/.well-known/oauth-protected-resource/v2',
    tag: 'Discovery',
    summary: 'Protected resource metadata of the data API (RFC 9728): its identifier is every access token’s aud',
    responses: { 200: { description: 'Metadata', schema: ZProtectedResourceMetadata } },
  },
  {
    method: 'get',
    path: '/.well-known/jwks.json',
    tag: 'Discovery',
    summary: 'The published signing keys',
    responses: { 200: { description: 'Key set', schema: ZJwks } },
  },
];
