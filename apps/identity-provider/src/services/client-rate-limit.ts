import { RateLimitedError } from '@svc/http';
import type { Logger } from '@svc/http';
import { StoreUnavailableError, type RateLimitDecision, type RateLimiter } from '@svc/kv';

const UNIT_SECONDS = { second: 1, minute: 60, hour: 3600 } as const;

/**
 * Area A's limit: RATE_LIMIT_DEFAULT requests per RATE_LIMIT_UNIT per client, shared by every
 * replica through the store, as advertised in /.well-known/svc-configuration. Counted once the
 * client is known (authenticated, or named by a verified access token). If Redis is down the
 * request goes through, logged: an identity provider that stops signing users in over a rate
 * counter does more harm than the burst it lets pass.
 */
export function clientRateLimit(limiter: RateLimiter, limit: number, unit: keyof typeof UNIT_SECONDS, logger: Logger) {
  return async (clientId: string): Promise<void> => {
    let decision: RateLimitDecision;
    try {
      decision = await limiter.consume(`client:${clientId}`, { limit, windowSeconds: UNIT_SECONDS[unit] });
    } catch (err) {
      if (err instanceof StoreUnavailableError) {
        logger.warn({ err: err.message }, 'client rate limit skipped: store unavailable');
        return;
      }
      throw err;
    }
    if (!decision.allowed) {
      throw new RateLimitedError(decision.retryAfterSeconds, `This client is over ${limit} requests per ${unit}`, {
        'X-RateLimit-Limit': String(limit),
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': String(decision.resetAt),
      });
    }
  };
}
