/**
 * When a failed delivery is tried again: after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h (the
 * schedule Standard Webhooks' reference service uses), each wait moved by up to a fifth either
 * way so that endpoints failing together are not retried together. Eight attempts over about 28
 * hours, then the delivery is failed.
 */
const WAITS_SECONDS = [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000];
export const MAX_ATTEMPTS = WAITS_SECONDS.length + 1;

/** The wait before attempt `attempts + 1` (ms), or undefined when `attempts` were the last. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number | undefined {
  const wait = WAITS_SECONDS[attempts - 1];
  if (wait === undefined) return undefined;
  return Math.round(wait * 1000 * (0.8 + 0.4 * random()));
}

/** An endpoint whose deliveries have failed for this long, with no success between, is disabled. */
export const DISABLE_AFTER_MS = 5 * 86_400_000;
