import type { BackoffPolicy, RateLimiter } from '@svc/kv';
import { limitSource } from '@svc/http';
import { sha256Hex } from '@svc/secrets';
import { signInSlowedDown } from '../errors.js';
import { attemptEach } from '../limits/backoffs.js';

/**
 * Failed sign-ins slow down further attempts; they never lock an account. Delays are kept per
 * (account, source address), so an attacker's guesses never delay the owner signing in from
 * elsewhere, and per source address, with a low ceiling, so one address cannot spray many
 * accounts quickly but a shared proxy is only slowed, never shut out. Failures are forgotten 15
 * minutes after the latest attempt.
 */
const FAILURE_MEMORY_SECONDS = 15 * 60;
const PER_ACCOUNT_AND_SOURCE: BackoffPolicy = { free: 3, maxDelaySeconds: 60, memorySeconds: FAILURE_MEMORY_SECONDS };
const PER_SOURCE: BackoffPolicy = { free: 20, maxDelaySeconds: 10, memorySeconds: FAILURE_MEMORY_SECONDS };
/**
 * Passwords of one account checked at the same time, from all sources together: guesses spread
 * over many addresses cannot make the server run scrypt for one account without bound. The lease
 * outlives any check; it only matters if a replica dies mid-check.
 */
const CHECKS_PER_ACCOUNT = { limit: 2, leaseSeconds: 30 };

/**
 * One sign-in attempt's place in the throttle. Every attempt is counted as a failure in the store,
 * atomically, before its password is checked (so parallel attempts see each other); one that
 * succeeds is taken back. An attempt that comes before the delay earned by earlier ones, or while
 * the account's checks are all busy, is refused (429 with Retry-After) without checking the password.
 */
export class SignInAttempt {
  private constructor(
    private readonly limiter: RateLimiter,
    private readonly keys: { accountSource: string; source: string },
    private readonly release: () => Promise<void>,
  ) {}

  /** Reserves the attempt, or throws 429. */
  static async reserve(limiter: RateLimiter, email: string, address: string): Promise<SignInAttempt> {
    const account = sha256Hex(email);
    // An IPv6 source by its /64, as every per-source limit counts it (source-address.ts).
    const source = limitSource(address);
    const keys = { accountSource: `login:as:${account}:${source}`, source: `login:src:${source}` };
    // The backoffs first: an attempt they refuse never holds one of the account's check slots, so
    // throttled guesses cannot keep the owner's sign-in waiting for a slot.
    await attemptEach(limiter, [
      [keys.accountSource, PER_ACCOUNT_AND_SOURCE],
      [keys.source, PER_SOURCE],
    ]);
    const slot = await limiter.acquire(`login:checks:${account}`, CHECKS_PER_ACCOUNT);
    if (!slot) {
      // Not checked, so not counted against either backoff.
      await Promise.all([limiter.forgive(keys.accountSource, 'one'), limiter.forgive(keys.source, 'one')]);
      throw signInSlowedDown(1);
    }
    return new SignInAttempt(limiter, keys, () => slot.release());
  }

  /**
   * Ends the attempt. A wrong password (or a check that failed) stays counted; a right one forgets
   * this account's failures from this source and is not held against the source.
   */
  async finish(succeeded: boolean): Promise<void> {
    await this.release();
    if (succeeded) await Promise.all([this.limiter.forgive(this.keys.accountSource, 'all'), this.limiter.forgive(this.keys.source, 'one')]);
  }
}
