import type { Request } from 'express';
import type { DataAccessDeps } from './deps.js';
import { assertDataWindow } from '../tokens/access-tokens.js';
import type { DataAccess } from './read-presets.js';
import { requireAccessToken } from '../tokens/bearer.js';

/**
 * The gate of every data endpoint: a live token (E4041 / E4042), inside its authorization's data
 * window (E4010), and a loader for the user's data through the preset cache.
 */
export async function requireDataAccess(deps: DataAccessDeps, req: Request) {
  const { grant, scopes } = await requireAccessToken(deps, req, 'data');
  const now = deps.clock.now();
  assertDataWindow(grant, now);
  const access: DataAccess = { scopes, windowEndsAt: grant.dataWindowEndsAt };
  return { access, now, subject: () => deps.presetCache.subject(grant, now) };
}
