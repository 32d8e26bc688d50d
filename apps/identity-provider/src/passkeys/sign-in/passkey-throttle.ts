import type { BackoffPolicy, RateLimiter } from '@svc/kv';
import { limitSource } from '@svc/http';
import { sha256Hex } from '@svc/secrets';
import { attemptEach } from '../../limits/backoffs.js';

/**
 * Failed passkey sign-ins slow further ones down, as failed passwords do (sessions/sign-in-throttle.ts),
 * per source address and per credential, and never lock anything. They are counted under keys of
 * their own: a broken or stolen-then-revoked passkey, or someone replaying assertions, never delays
 * the owner's password, nor a password guesser the owner's passkey. A passkey carries no secret to
 * guess, so the point is to bound the verification work one source or one credential can ask for.
 */
const FAILURE_MEMORY_SECONDS = 15 * 60;
const PER_SOURCE: BackoffPolicy = { free: 20, maxDelaySeconds: 10, memorySeconds: FAILURE_MEMORY_SECONDS };
const PER_CREDENTIAL: BackoffPolicy = { free: 5, maxDelaySeconds: 60, memorySeconds: FAILURE_MEMORY_SECONDS };

export class PasskeyAttempt {
  private constructor(
    private readonly limiter: RateLimiter,
    private readonly keys: { source: string; credential: string },
  ) {}

  /** Reserves the attempt (counted as failed until `finish(true)`), or throws 429 with Retry-After. */
  static async reserve(limiter: RateLimiter, credentialId: string, address: string): Promise<PasskeyAttempt> {
    const keys = { source: `passkey:src:${limitSource(address)}`, credential: `passkey:cred:${sha256Hex(credentialId)}` };
    await attemptEach(limiter, [
      [keys.source, PER_SOURCE],
      [keys.credential, PER_CREDENTIAL],
    ]);
    return new PasskeyAttempt(limiter, keys);
  }

  /** A sign-in that succeeded forgets the credential's failures and is not held against the source. */
  async finish(succeeded: boolean): Promise<void> {
    if (succeeded) await Promise.all([this.limiter.forgive(this.keys.credential, 'all'), this.limiter.forgive(this.keys.source, 'one')]);
  }
}
