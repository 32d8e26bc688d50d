import { type Logger, ServiceUnavailableError } from '@svc/http';
import { MemoryStore, StoreUnavailableError, type RateLimitDecision, type RateLimiter } from '@svc/kv';
import type { LimitEvents } from './limit-events.js';

export interface KeyLimits {
  hourlyLimit: number;
  burstLimit: number;
  /** The key's organization: told (api_key.limit_reached) when the key reaches its hourly limit. */
  organizationId?: string;
}

export interface KeyLimiterOptions {
  limiter: RateLimiter;
  onRedisFailure: 'closed' | 'open';
  replicas: number;
  logger: Logger;
  /** The service's clock (for when Redis went away, and the fallback limiter's windows). */
  clock: { now(): Date };
  /** Where a key reaching its hourly limit is announced (the webhook outbox). */
  events?: LimitEvents;
  /**
   * The platform maximum of a key's limits (API_KEY_MAX_HOURLY_LIMIT, API_KEY_MAX_BURST_LIMIT):
   * tenants choose their keys' limits, so a key made above it (or before it was lowered) is held
   * to it here, whatever its record says.
   */
  maxLimits: { hourly: number; burst: number };
}

/** The X-RateLimit-* headers every answer to a known key carries (areas B and C). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

/**
 * Per-key limits (hourly window + per-second burst) through the shared store. When the store
 * is unreachable it either refuses (closed, the default) or falls back to a per-replica
 * in-memory limiter holding limit ÷ replicas (open), so the fleet never exceeds the limit.
 */
export class KeyLimiter {
  private readonly fallback: MemoryStore;
  private degradedSince: number | undefined;

  constructor(private readonly options: KeyLimiterOptions) {
    this.fallback = new MemoryStore(() => options.clock.now().getTime());
  }

  get degraded(): boolean {
    return this.degradedSince !== undefined;
  }

  async consume(keyId: string, limits: KeyLimits): Promise<RateLimitDecision> {
    const { maxLimits } = this.options;
    const held = { ...limits, hourlyLimit: Math.min(limits.hourlyLimit, maxLimits.hourly), burstLimit: Math.min(limits.burstLimit, maxLimits.burst) };
    const decision = await this.decide(keyId, held);
    const { organizationId } = held;
    if (organizationId) this.options.events?.observe({ id: keyId, organizationId, hourlyLimit: held.hourlyLimit }, decision);
    return decision;
  }

  private async decide(keyId: string, limits: KeyLimits): Promise<RateLimitDecision> {
    const policy = { limit: limits.hourlyLimit, windowSeconds: 3600, burst: { limit: limits.burstLimit, perSeconds: 1 } };
    try {
      const decision = await this.options.limiter.consume(keyId, policy);
      if (this.degradedSince !== undefined) {
        this.options.logger.info('rate limiter: Redis is back');
        this.degradedSince = undefined;
      }
      return decision;
    } catch (err) {
      if (!(err instanceof StoreUnavailableError)) throw err;
      if (this.degradedSince === undefined) {
        this.degradedSince = this.options.clock.now().getTime();
        this.options.logger.error({ err: err.message, mode: this.options.onRedisFailure }, 'rate limiter: Redis unavailable');
      }
      if (this.options.onRedisFailure === 'closed') {
        throw new ServiceUnavailableError('Rate limiting is unavailable; try again shortly', 5, 'rate_limiter_unavailable');
      }
      const share = (n: number) => Math.max(1, Math.floor(n / this.options.replicas));
      const local = await this.fallback.limiter.consume(keyId, {
        ...policy,
        limit: share(policy.limit),
        burst: { limit: share(policy.burst.limit), perSeconds: 1 },
      });
      // Headers still advertise the key's real hourly limit.
      return { ...local, limit: policy.limit };
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}
