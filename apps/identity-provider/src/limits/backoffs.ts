import type { BackoffPolicy, RateLimiter } from '@svc/kv';
import { signInSlowedDown } from '../errors.js';

/**
 * Counts one attempt under each backoff in turn (a sign-in's per source, per account or per
 * passkey). When one refuses, the attempts already counted are forgiven, so a refused attempt
 * costs nothing under the others, and the caller is slowed down (429 with Retry-After).
 */
export async function attemptEach(limiter: RateLimiter, backoffs: [key: string, policy: BackoffPolicy][]): Promise<void> {
  for (const [i, [key, policy]] of backoffs.entries()) {
    const decision = await limiter.attempt(key, policy);
    if (decision.allowed) continue;
    await Promise.all(backoffs.slice(0, i).map(([counted]) => limiter.forgive(counted, 'one')));
    throw signInSlowedDown(decision.retryAfterSeconds);
  }
}
