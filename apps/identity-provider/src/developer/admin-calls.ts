import { AdminError, type AdminContext } from '@svc/admin';
import { HttpError } from '@svc/http';
import type { DeveloperDeps } from './deps.js';

/** The admin package's context for this environment: what it makes is marked as this environment's. */
export const adminContext = (deps: Pick<DeveloperDeps, 'db' | 'clock' | 'environment'>): AdminContext => ({
  db: deps.db,
  now: () => deps.clock.now(),
  environment: deps.environment.name,
});

/**
 * Runs an admin-package operation for an API caller. Requests are checked field by field before
 * (zod), so an AdminError is a rule only the admin package knows: a 400 with its words.
 */
export async function asRequest<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof AdminError)
      throw new HttpError(
        400,
        'invalid_request',
        err.message.replace(/--([a-z-]+)/g, (_m, flag: string) => flag.replace(/-/g, '_')),
      );
    throw err;
  }
}
