import type { Logger } from '@svc/http';

const HOUSEKEEPING_MS = 60_000;

export interface HousekeepingDeps {
  /** Deletes expired pending authorizations and revoked-token records; answers how many authorizations went. */
  purgeExpired: () => Promise<number>;
  logger: Logger;
}

/**
 * Deletes expired pending authorizations and revoked-token records every minute. Started and
 * stopped by server.ts, so a test or a script that builds the app's deps starts no timer.
 */
export function startHousekeeping(deps: HousekeepingDeps): { stop(): void } {
  const timer = setInterval(() => deps.purgeExpired().catch((err: unknown) => deps.logger.warn({ err }, 'housekeeping failed')), HOUSEKEEPING_MS).unref();
  return { stop: () => clearInterval(timer) };
}
