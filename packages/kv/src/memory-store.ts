import { decide, type LimitState } from './limit-math.js';
import type { Cache, Clock, RateLimitPolicy, RateLimiter, Store } from './types.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * The embedded default when no REDIS_URL is given: exact within one process, shared with no
 * other. Expired entries are dropped lazily and by a periodic sweep.
 */
export class MemoryStore implements Store {
  readonly kind = 'memory';
  readonly limiter: RateLimiter;
  readonly cache: Cache;
  private readonly entries = new Map<string, Entry>();
  private readonly limits = new Map<string, LimitState & { expiresAt: number }>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly clock: Clock = Date.now) {
    this.sweep = setInterval(() => this.dropExpired(), 60_000);
    this.sweep.unref();
    this.limiter = { consume: async (key, policy) => this.consume(key, policy) };
    this.cache = {
      get: async (key) => this.live(key)?.value ?? null,
      set: async (key, value, ttlSeconds) => {
        this.entries.set(key, { value, expiresAt: this.clock() + ttlSeconds * 1000 });
      },
      delete: async (...keys) => keys.reduce((n, k) => n + (this.entries.delete(k) ? 1 : 0), 0),
      increment: async (key, ttlSeconds) => {
        const current = this.live(key);
        const value = String(Number(current?.value ?? 0) + 1);
        this.entries.set(key, { value, expiresAt: current?.expiresAt ?? this.clock() + ttlSeconds * 1000 });
        return Number(value);
      },
    };
  }

  private consume(key: string, policy: RateLimitPolicy) {
    const now = this.clock();
    const stored = this.limits.get(key);
    const state = stored && stored.expiresAt > now ? stored : undefined;
    const { decision, next } = decide(state, now, policy);
    if (next) this.limits.set(key, { ...next, expiresAt: Math.max(next.windowStart + policy.windowSeconds * 1000, next.tat) });
    return decision;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private dropExpired(): void {
    const now = this.clock();
    for (const [k, e] of this.entries) if (e.expiresAt <= now) this.entries.delete(k);
    for (const [k, s] of this.limits) if (s.expiresAt <= now) this.limits.delete(k);
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweep);
    this.entries.clear();
    this.limits.clear();
  }
}
