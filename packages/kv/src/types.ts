/** A window limit with an optional burst limit; both must allow a hit for it to count. */
export interface RateLimitPolicy {
  /** Hits allowed per window. */
  limit: number;
  windowSeconds: number;
  /** At most `limit` hits per `perSeconds`, enforced smoothly (GCRA). */
  burst?: { limit: number; perSeconds: number };
}

export interface RateLimitDecision {
  allowed: boolean;
  /** The window limit. */
  limit: number;
  /** Hits left in the current window after this one. */
  remaining: number;
  /** Unix time (seconds) at which the current window ends. */
  resetAt: number;
  /** Seconds to wait before a retry can succeed; 0 when allowed. */
  retryAfterSeconds: number;
  /** Which limit refused the hit. */
  refusedBy?: 'window' | 'burst';
}

/**
 * Exponential backoff without lockout: the attempts past `free` each earn a wait before the next
 * one (1 s, doubling, at most `maxDelaySeconds`). Attempts are forgotten `memorySeconds` after the
 * latest one.
 */
export interface BackoffPolicy {
  free: number;
  maxDelaySeconds: number;
  memorySeconds: number;
}

export interface BackoffDecision {
  allowed: boolean;
  /** Attempts remembered, this one included when allowed. */
  attempts: number;
  /** Seconds until an attempt can be allowed; 0 when allowed. */
  retryAfterSeconds: number;
}

/** At most `limit` holders of a key at once; a holder that never releases is dropped after `leaseSeconds`. */
export interface SlotPolicy {
  limit: number;
  leaseSeconds: number;
}

export interface Slot {
  release(): Promise<void>;
}

/** One hit of `consumeAll`: a key and the policy it is counted under. */
export interface RateLimitHit {
  key: string;
  policy: RateLimitPolicy;
}

export interface RateLimiter {
  /** Counts one hit against `key` when both limits allow it; refused hits are not counted. */
  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>;
  /**
   * Counts one hit against every key when all of their policies allow it, and against none
   * otherwise, in one atomic step (one round trip to Redis): nested budgets, such as a share
   * inside a larger budget, are never charged apart. One decision per hit, in order, each its own
   * key's verdict (`remaining` as charged, or as it was when nothing was). A key is the same bucket
   * as `consume(key)`'s. Keys that carry the same `{hash tag}` stay in one Redis Cluster slot.
   */
  consumeAll(hits: readonly RateLimitHit[]): Promise<RateLimitDecision[]>;
  /**
   * Reserves one attempt under `policy` in one atomic step: refused (and not counted) while the
   * wait earned by the attempts so far runs, otherwise counted at once, before its outcome is
   * known, so parallel attempts cannot all pass one check.
   */
  attempt(key: string, policy: BackoffPolicy): Promise<BackoffDecision>;
  /** Takes back attempts counted by `attempt`: one (an attempt that turned out fine), or all of them. */
  forgive(key: string, how: 'one' | 'all'): Promise<void>;
  /** Takes one of the key's slots atomically; undefined when all are held. */
  acquire(key: string, policy: SlotPolicy): Promise<Slot | undefined>;
}

export interface Cache {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlSeconds: number): Promise<void>;
  delete(...keys: string[]): Promise<number>;
  /** Atomically adds 1 and returns the new value; the key expires `ttlSeconds` after creation. */
  increment(key: string, ttlSeconds: number): Promise<number>;
}

/** The two uses of Redis behind one handle: rate limits and a TTL cache. */
export interface Store {
  readonly kind: 'redis' | 'memory';
  readonly limiter: RateLimiter;
  readonly cache: Cache;
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Redis did not answer (down, unreachable or too slow); callers choose to fail open or closed. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
}

/** Milliseconds since the epoch; injectable so windows can be tested without sleeping. */
export type Clock = () => number;
