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

export interface RateLimiter {
  /** Counts one hit against `key` when both limits allow it; refused hits are not counted. */
  consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision>;
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
