import type { Logger } from '@svc/http';

const HOUSEKEEPING_MS = 60_000;

export interface HousekeepingDeps {
  /** Deletes expired pending authorizations and revoked-token records; answers how many authorizations went. */
  purgeExpired: () => Promise<number>;
  /** Writes authorization.data_window_ended for each data window that is over; answers how many. */
  announceDataWindowEnds: () => Promise<number>;
  logger: Logger;
}

/**
 * Deletes expired pending authorizations and revoked-token records, and announces ended data
 * windows, every minute. Started and stopped by server.ts, so a test or a script that builds the
 * app's deps starts no timer.
 */
export function startHousekeeping(deps: HousekeepingDeps): { stop(): void } {
  const run = () => Promise.all([deps.purgeExpired(), deps.announceDataWindowEnds()]).catch((err: unknown) => deps.logger.warn({ err }, 'housekeeping failed'));
  const timer = setInterval(run, HOUSEKEEPING_MS).unref();
  return { stop: () => clearInterval(timer) };
}
