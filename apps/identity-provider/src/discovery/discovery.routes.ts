import { Router, type RequestHandler } from 'express';
import { methodNotAllowed } from '@svc/http';
import type { DiscoveryDeps } from './deps.js';
import { openidConfiguration, protectedResourceMetadata, svcConfiguration } from './discovery.js';

/** Discovery and keys are public and cacheable, and browsers on any origin may read them. */
const publicDocument: RequestHandler = (_req, res, next) => {
  res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=300' });
  next();
};

export function discoveryRouter(deps: DiscoveryDeps): Router {
  const router = Router();
  const { issuer } = deps.config;
  const mtls = deps.config.MTLS_CLIENT_CERT_HEADER !== undefined;
  const openid = openidConfiguration(issuer, deps.config.SVC_ENVIRONMENT, { mtls, credentialIssuer: deps.config.credentialIssuer !== undefined });
  const resource = protectedResourceMetadata(issuer, deps.config.resource);
  const svc = svcConfiguration(
    issuer,
    deps.config.resource,
    {
      limit: deps.config.RATE_LIMIT_DEFAULT,
      unit: deps.config.RATE_LIMIT_UNIT,
      perGrant: deps.config.rateLimitPerGrant,
      perSource: deps.config.rateLimitPerSource,
    },
    { environment: deps.config.SVC_ENVIRONMENT, baseUrls: deps.config.baseUrls, mtls },
  );
  router
    .route('/.well-known/openid-configuration')
    .get(publicDocument, (_req, res) => void res.json(openid))
    .all(methodNotAllowed);
  // RFC 9728 §3: the metadata of the resource at {issuer}/v2 lives at this path with /v2 appended.
  router
    .route('/.well-known/oauth-protected-resource/v2')
    .get(publicDocument, (_req, res) => void res.json(resource))
    .all(methodNotAllowed);
  router
    .route('/.well-known/svc-configuration')
    .get(publicDocument, (_req, res) => void res.json(svc))
    .all(methodNotAllowed);
  router
    .route('/.well-known/jwks.json')
    .get(publicDocument, async (_req, res) => {
      res.json({ keys: await deps.signingKeys.published() });
    })
    .all(methodNotAllowed);
  return router;
}
