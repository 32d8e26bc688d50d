import { type Logger, ServiceUnavailableError } from '@svc/http';
import { MemoryStore, StoreUnavailableError, type RateLimitDecision, type RateLimitHit, type RateLimiter } from '@svc/kv';
import type { LimitEvents } from './limit-events.js';

export interface KeyLimits {
  hourlyLimit: number;
  burstLimit: number;
  /**
   * The key's organization: its keys together are held to the organization's budget, and it is
   * told (api_key.limit_reached) when the key reaches its own hourly limit.
   */
  organizationId?: string;
}

/** A key's decision: when refused, whether by the key's own limits or by its organization's budget. */
export type KeyDecision = RateLimitDecision & { refusedFor?: 'key' | 'organization' };

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
  /**
   * What all of one organization's keys together may use of this service (ORGANIZATION_HOURLY_LIMIT,
   * ORGANIZATION_BURST_LIMIT): keys are self-service, so without it an organization would get as
   * much as it made keys for.
   */
  organizationLimits: { hourly: number; burst: number };
}

/** The X-RateLimit-* headers every answer to a known key carries (areas B and C). */
export function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(decision.resetAt),
  };
}

const HOUR = 3600;

/** A key's limits as given (to tell when they change), as held, and the hits they make. */
interface Prepared {
  keyId: string;
  hourlyLimit: number;
  burstLimit: number;
  organizationId: string | undefined;
  held: KeyLimits;
  hits: readonly RateLimitHit[];
}

/**
 * Per-key limits (hourly window + per-second burst) inside the key's organization's budget (the
 * same two, for all its keys together), both charged in one atomic step through the shared store:
 * a request counts against the key and its organization, or against neither. When the store is
 * unreachable it either refuses (closed, the default) or falls back to a per-replica in-memory
 * limiter holding limit ÷ replicas of each (open), so the fleet never exceeds either.
 */
export class KeyLimiter {
  private readonly fallback: MemoryStore;
  private readonly prepared = new WeakMap<KeyLimits, Prepared>();
  private degradedSince: number | undefined;

  constructor(private readonly options: KeyLimiterOptions) {
    this.fallback = new MemoryStore(() => options.clock.now().getTime());
  }

  get degraded(): boolean {
    return this.degradedSince !== undefined;
  }

  async consume(keyId: string, limits: KeyLimits): Promise<KeyDecision> {
    const { held, hits } = this.prepare(keyId, limits);
    const decision = await this.decide(hits, held);
    const { organizationId } = held;
    // api_key.limit_reached is the key's own limit; its organization's budget is not the key's.
    if (organizationId && decision.refusedFor !== 'organization')
      this.options.events?.observe({ id: keyId, organizationId, hourlyLimit: held.hourlyLimit }, decision);
    return decision;
  }

  /**
   * The limits a key is held to and its hits, kept with its record (services pass the one their
   * key cache holds, so these go when it does) while the key and its limits are unchanged, rather
   * than a dozen objects and strings built again on every request.
   */
  private prepare(keyId: string, limits: KeyLimits): Prepared {
    const kept = this.prepared.get(limits);
    if (
      kept?.keyId === keyId &&
      kept.hourlyLimit === limits.hourlyLimit &&
      kept.burstLimit === limits.burstLimit &&
      kept.organizationId === limits.organizationId
    )
      return kept;
    const { maxLimits } = this.options;
    const held = { ...limits, hourlyLimit: Math.min(limits.hourlyLimit, maxLimits.hourly), burstLimit: Math.min(limits.burstLimit, maxLimits.burst) };
    const prepared = {
      keyId,
      hourlyLimit: limits.hourlyLimit,
      burstLimit: limits.burstLimit,
      organizationId: limits.organizationId,
      held,
      hits: this.hits(keyId, held),
    };
    this.prepared.set(limits, prepared);
    return prepared;
  }

  /** The key's hit, and its organization's: one hash tag, so both stay in one Redis Cluster slot. */
  private hits(keyId: string, limits: KeyLimits): RateLimitHit[] {
    const key = { key: keyId, policy: { limit: limits.hourlyLimit, windowSeconds: HOUR, burst: { limit: limits.burstLimit, perSeconds: 1 } } };
    if (!limits.organizationId) return [key];
    const { hourly, burst } = this.options.organizationLimits;
    const org = `{org:${limits.organizationId}}`;
    return [
      { ...key, key: `${org}:key:${keyId}` },
      { key: org, policy: { limit: hourly, windowSeconds: HOUR, burst: { limit: burst, perSeconds: 1 } } },
    ];
  }

  private async decide(hits: readonly RateLimitHit[], limits: KeyLimits): Promise<KeyDecision> {
    try {
      const decisions = await this.options.limiter.consumeAll(hits);
      if (this.degradedSince !== undefined) {
        this.options.logger.info('rate limiter: Redis is back');
        this.degradedSince = undefined;
      }
      return combine(decisions);
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
      const local = await this.fallback.limiter.consumeAll(
        hits.map(({ key, policy }) => ({
          key,
          policy: { ...policy, limit: share(policy.limit), burst: { limit: share(policy.burst!.limit), perSeconds: 1 } },
        })),
      );
      // Headers still advertise the key's real hourly limit.
      return { ...combine(local), limit: limits.hourlyLimit };
    }
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}

/**
 * One answer from the key's decision and its organization's: the key's limit and window, the
 * hits left under both (the fewer), and, when refused, the wait and reason of whichever refused
 * (the key's first).
 */
function combine([key, org]: RateLimitDecision[]): KeyDecision {
  if (!org) return key!.allowed ? key! : { ...key!, refusedFor: 'key' };
  const remaining = Math.min(key!.remaining, org.remaining);
  if (!key!.allowed) return { ...key!, remaining, refusedFor: 'key' };
  if (!org.allowed) {
    return {
      ...key!,
      allowed: false,
      remaining,
      retryAfterSeconds: org.retryAfterSeconds,
      ...(org.refusedBy ? { refusedBy: org.refusedBy } : {}),
      refusedFor: 'organization',
    };
  }
  return { ...key!, remaining };
}
