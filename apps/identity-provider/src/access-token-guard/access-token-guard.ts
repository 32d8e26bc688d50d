import type { Request, RequestHandler } from 'express';
import { readAuthorization, type TokenScheme } from '@svc/http';
import { insufficientScope, tokenRejected } from '../errors.js';
import { type ClientClaims, loadGrant, loadTokenClient, verifyAccessJwt, verifyClientJwt } from '../tokens/access-tokens.js';
import type { AccessClaims, Grant } from '../tokens/grant.js';
import type { Application } from '../clients/application.js';
import type { AccessTokenGuardDeps } from './deps.js';
import { checkSender, type Style } from './sender.js';

export interface Access {
  claims: AccessClaims;
  grant: Grant;
  /** The scopes this token carries (a refreshed token may carry fewer than were granted). */
  scopes: string[];
  /** The client it was issued to (its step-up policy among its settings). */
  client: Application | undefined;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** The access token a request presents, checked: left by requireAccessToken. */
    access?: Access;
  }
}

/** The token of `Authorization: Bearer …` or `DPoP …`; a header of over 8 KiB is not read at all. */
function presentedToken(req: Request, style: Style): { scheme: TokenScheme; token: string } {
  const presented = readAuthorization(req);
  if (!presented || (req.headers.authorization?.length ?? 0) > 8192) throw tokenRejected('missing', style);
  if (presented.token === undefined) throw tokenRejected('invalid', style);
  return { scheme: presented.scheme, token: presented.token };
}

/**
 * A client's token for itself (client_credentials) carrying `scope`, checked like a user's access
 * token (signature, sender, the client's budget, revocation) but naming no user: the organization
 * whose client it is.
 */
export async function requireClientToken(deps: AccessTokenGuardDeps, req: Request, scope: string): Promise<{ claims: ClientClaims; organizationId: string }> {
  const { scheme, token } = presentedToken(req, 'oauth');
  const jwt = await verifyClientJwt(deps.tokens, token);
  if (!jwt.ok) throw tokenRejected(jwt.rejection, 'oauth', deps.tokens.environment.elsewhereJwt('This access token', token));
  await checkSender(deps, req, { scheme, token, claims: jwt.value }, 'oauth');
  await deps.limits.client(jwt.value.client_id);
  const client = await loadTokenClient(deps.tokens, jwt.value);
  if (!client.ok) throw tokenRejected(client.rejection, 'oauth');
  if (!jwt.value.scope.split(' ').includes(scope)) throw insufficientScope(scope);
  return { claims: jwt.value, organizationId: client.value.organizationId };
}

/**
 * RFC 6750 / RFC 9449: the access token from `Authorization: Bearer …` or `DPoP …`, verified,
 * checked for its sender, counted against its end user's share of its client's rate limit (before the database is asked),
 * and checked for revocation. `style` picks how a refusal reads: RFC 6750 for OAuth endpoints,
 * E4041/E4042 for the data endpoints.
 */
export async function checkedAccessToken(deps: AccessTokenGuardDeps, req: Request, style: Style = 'oauth'): Promise<Access> {
  const { scheme, token } = presentedToken(req, style);
  const jwt = await verifyAccessJwt(deps.tokens, token);
  if (!jwt.ok) throw tokenRejected(jwt.rejection, style, deps.tokens.environment.elsewhereJwt('This access token', token));
  await checkSender(deps, req, { scheme, token, claims: jwt.value }, style);
  // A public client's reads come from its users' devices: charged to the source's share as well.
  const client = await deps.clients.find(jwt.value.client_id);
  await deps.limits.grant(jwt.value.client_id, jwt.value.sub, client?.isPublic ? (req.ip ?? 'unknown') : undefined);
  const grant = await loadGrant(deps.tokens, jwt.value);
  if (!grant.ok) throw tokenRejected(grant.rejection, style);
  return { claims: jwt.value, grant: grant.value, scopes: jwt.value.scope.split(' ').filter(Boolean), client: client ?? undefined };
}

/** The guard of a route for access tokens (see checkedAccessToken): leaves the token in `res.locals.access`. */
export function requireAccessToken(deps: AccessTokenGuardDeps, style: Style = 'oauth'): RequestHandler {
  return async (req, res, next) => {
    res.locals.access = await checkedAccessToken(deps, req, style);
    next();
  };
}
