import type { ZRevokeRequest } from '@svc/schemas';
import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { checkedClient } from '../clients/require-client.js';
import { invalidRequest } from '../errors.js';
import { checkedSession, presentedSession } from '../sessions/session-cookie.js';
import type { RevocationDeps } from './deps.js';
import type { Revoker } from './revocation.js';

/** The body, as handle() has checked it by the time these run. */
type RevokeRequest = z.output<typeof ZRevokeRequest>;

/** What a revocation request names: authorizations by id, and tokens. */
export interface RevocationTargets {
  authorizationIds: string[];
  plainTokens: string[];
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by revocationTargets. */
    revocationTargets?: RevocationTargets;
    /** Who revokes, left by requireRevoker. */
    revoker?: Revoker;
  }
}

/**
 * What the request names, read from the body handle() has checked; a request that names nothing is
 * answered 400 before anyone is asked who they are.
 */
export const revocationTargets: RequestHandler = (req, res, next) => {
  const body = req.body as RevokeRequest;
  const tokens = [...(body.token !== undefined ? [body.token] : []), ...(body.tokens ?? [])];
  // With token_type_hint=authorization, `token` names an authorization.
  const authorizationIds = [...(body.authorization_id ? [body.authorization_id] : []), ...(body.token_type_hint === 'authorization' ? tokens : [])];
  const plainTokens = body.token_type_hint === 'authorization' ? [] : tokens;
  if (authorizationIds.length === 0 && plainTokens.length === 0) throw invalidRequest('Give token, tokens or authorization_id');
  res.locals.revocationTargets = { authorizationIds, plainTokens };
  next();
};

/**
 * After revocationTargets: a user's own session may revoke that user's authorizations (with the
 * cookie, only with the session's CSRF token); anything else needs the client, authenticated.
 * Leaves who revokes in `res.locals.revoker`.
 */
export function requireRevoker(deps: RevocationDeps): RequestHandler {
  return async (req, res, next) => {
    const body = req.body as RevokeRequest;
    const session = presentedSession(deps, req);
    if (
      res.locals.revocationTargets!.plainTokens.length === 0 &&
      session.via !== 'none' &&
      !req.headers.authorization?.startsWith('Basic ') &&
      !body.client_id
    ) {
      res.locals.revoker = { kind: 'user', userId: (await checkedSession(deps, req, { csrf: true })).userId };
    } else {
      res.locals.revoker = { kind: 'client', app: (await checkedClient(deps, req)).app };
    }
    next();
  };
}
