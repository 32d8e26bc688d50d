import type { Request } from 'express';
import { invalidToken } from '../errors.js';
import type { AppDeps } from '../deps.js';
import { verifyAccessToken } from '../services/tokens.js';

/** RFC 6750: the access token from `Authorization: Bearer …`, verified. */
export async function requireAccessToken(deps: AppDeps, req: Request) {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ') || header.length > 8192) {
    throw Object.assign(invalidToken('An access token is required'), { headers: { 'WWW-Authenticate': 'Bearer realm="svc"' } });
  }
  const claims = await verifyAccessToken(deps.tokens, header.slice(7).trim());
  await deps.limitClient(claims.client_id);
  return claims;
}
