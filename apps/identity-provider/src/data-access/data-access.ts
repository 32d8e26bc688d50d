import type { RequestHandler } from 'express';
import type { SubjectData } from '@svc/presets';
import type { DataAccessDeps } from './deps.js';
import { assertDataWindow } from '../tokens/access-tokens.js';
import type { DataAccess } from './read-presets.js';
import { checkedAccessToken } from '../access-token-guard/access-token-guard.js';

/** What a data endpoint reads with: what the token may read, the time, and the user's data. */
export interface DataRead {
  access: DataAccess;
  now: Date;
  subject: () => Promise<SubjectData>;
}

declare module 'express-serve-static-core' {
  interface Locals {
    /** Left by requireDataAccess. */
    dataRead?: DataRead;
  }
}

/**
 * The gate of every data endpoint: a live token (E4041 / E4042), inside its authorization's data
 * window (E4010), and a loader for the user's data through the preset cache, in `res.locals.dataRead`.
 */
export function requireDataAccess(deps: DataAccessDeps): RequestHandler {
  return async (req, res, next) => {
    const { grant, scopes, claims, client } = await checkedAccessToken(deps, req, 'data');
    const now = deps.clock.now();
    assertDataWindow(grant, now);
    const access: DataAccess = { scopes, windowEndsAt: grant.dataWindowEndsAt };
    res.locals.dataRead = { access, now, subject: () => deps.presetCache.subject(grant, now) };
    res.locals.stepUp = {
      signedIn: { acr: claims.acr, authTime: claims.auth_time },
      needs: { acr: client?.sensitiveDataAcr ?? null, maxAge: client?.sensitiveDataMaxAge ?? null },
    };
    next();
  };
}

/** After requireAccessToken, where a token is read without the data loader (user info): inside its authorization's data window (E4010). */
export function requireDataWindow(deps: Pick<DataAccessDeps, 'clock'>): RequestHandler {
  return (_req, res, next) => {
    assertDataWindow(res.locals.access!.grant, deps.clock.now());
    next();
  };
}
