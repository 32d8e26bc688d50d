import type { Request } from 'express';
import type { AppDeps } from '../deps.js';
import { tokenRejected } from '../errors.js';
import { loadGrant, verifyAccessJwt, type AccessClaims, type Grant } from '../services/access-tokens.js';

export interface Access {
  claims: AccessClaims;
  grant: Grant;
  /** The scopes this token carries (a refreshed token may carry fewer than were granted). */
  scopes: string[];
}

/**
 * RFC 6750: the access token from `Authorization: Bearer …`, verified, counted against its client's
 * rate limit (before the database is asked), and checked for revocation. `style` picks how a
 * refusal reads: RFC 6750 for OAuth endpoints, E4041/E4042 for the data endpoints.
 */
export async function requireAccessToken(deps: AppDeps, req: Request, style: 'oauth' | 'data' = 'oauth'): Promise<Access> {
  const header = req.headers.authorization;
  if (!header?.startsWith('Bearer ') || header.length > 8192) throw tokenRejected('missing', style);
  const jwt = await verifyAccessJwt(deps.tokens, header.slice(7).trim());
  if (!jwt.ok) throw tokenRejected(jwt.rejection, style);
  await deps.limitClient(jwt.value.client_id);
  const grant = await loadGrant(deps.tokens, jwt.value);
  if (!grant.ok) throw tokenRejected(grant.rejection, style);
  return { claims: jwt.value, grant: grant.value, scopes: jwt.value.scope.split(' ').filter(Boolean) };
}
