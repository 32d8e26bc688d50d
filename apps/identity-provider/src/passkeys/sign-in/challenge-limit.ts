/**
 * Passkey challenges per source address: each one asked for is kept in the shared store for five
 * minutes, unauthenticated, so an address may ask for PASSKEY_CHALLENGES_PER_SOURCE_PER_MINUTE a
 * minute (a person needs one per sign-in; a page that is reloaded, a few) and no more.
 */
import type { RequestHandler } from 'express';
import type { PasskeyDeps } from '../deps.js';

export function limitChallenges(deps: Pick<PasskeyDeps, 'limits'>): RequestHandler {
  return async (req, _res, next) => {
    await deps.limits.passkeyChallenges(req.ip ?? 'unknown');
    next();
  };
}
