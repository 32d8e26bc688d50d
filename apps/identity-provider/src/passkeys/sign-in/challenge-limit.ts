/**
 * Sign-in challenges per source address: each one asked for is kept in the shared store for five
 * minutes, unauthenticated, so an address may ask for SIGN_IN_CHALLENGES_PER_MINUTE a minute (a
 * person needs one per sign-in; a page that is reloaded, a few) and no more.
 */
import { limitSource } from '@svc/http';
import { StoreUnavailableError } from '@svc/kv';
import type { RequestHandler } from 'express';
import { rateLimited } from '../errors.js';
import type { PasskeyDeps } from './deps.js';

export const SIGN_IN_CHALLENGES_PER_MINUTE = 120;

export function limitSignInChallenges(deps: Pick<PasskeyDeps, 'store'>): RequestHandler {
  return async (req, _res, next) => {
    const decision = await deps.store.limiter
      .consume(`passkey-challenges:${limitSource(req.ip ?? 'unknown')}`, { limit: SIGN_IN_CHALLENGES_PER_MINUTE, windowSeconds: 60 })
      // Without the store there is nowhere to keep a challenge either: making one fails as it would.
      .catch((err: unknown) => {
        if (err instanceof StoreUnavailableError) return undefined;
        throw err;
      });
    if (decision && !decision.allowed)
      throw rateLimited(decision.retryAfterSeconds, 'Too many passkey sign-in challenges from this address; try again shortly');
    next();
  };
}
