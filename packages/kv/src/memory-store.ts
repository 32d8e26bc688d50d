import { randomUUID } from 'node:crypto';
import { attempt, type BackoffState, decide, type LimitState } from './limit-math.js';
import type { BackoffPolicy, Cache, Clock, RateLimitHit, RateLimitPolicy, RateLimiter, SlotPolicy, Store } from './types.js';

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
  private readonly backoffs = new Map<string, BackoffState & { expiresAt: number }>();
  /** Per key, each holder's lease end (ms). */
  private readonly slots = new Map<string, Map<string, number>>();
  private readonly sweep: NodeJS.Timeout;

  constructor(private readonly clock: Clock = Date.now) {
    this.sweep = setInterval(() => this.dropExpired(), 60_000);
    this.sweep.unref();
    // Each operation runs to completion without an await, so it is atomic within this process.
    this.limiter = {
      consume: async (key, policy) => this.consume(key, policy),
      consumeAll: async (hits) => this.consumeAll(hits),
      attempt: async (key, policy) => this.attempt(key, policy),
      forgive: async (key, how) => this.forgive(key, how),
      acquire: async (key, policy) => this.acquire(key, policy),
    };
    this.cache = {
      get: async (key) => this.live(key)?.value ?? null,
      set: async (key, value, ttlSeconds) => {
        this.entries.set(key, { value, expiresAt: this.clock() + ttlSeconds * 1000 });
      },
      // Like Redis's DEL: counts only what was still there (an entry past its expiry is gone, swept or not).
      delete: async (...keys) => keys.reduce((n, k) => n + (this.live(k) !== undefined && this.entries.delete(k) ? 1 : 0), 0),
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

  private consumeAll(hits: readonly RateLimitHit[]) {
    const now = this.clock();
    const decided = hits.map(({ key, policy }) => {
      const stored = this.limits.get(key);
      return decide(stored && stored.expiresAt > now ? stored : undefined, now, policy);
    });
    if (decided.every((d) => d.next)) {
      hits.forEach(({ key, policy }, i) => {
        const next = decided[i]!.next!;
        this.limits.set(key, { ...next, expiresAt: Math.max(next.windowStart + policy.windowSeconds * 1000, next.tat) });
      });
      return decided.map((d) => d.decision);
    }
    // Nothing was charged: an allowed key still has the hit it would have used.
    return decided.map(({ decision }) => (decision.allowed ? { ...decision, remaining: decision.remaining + 1 } : decision));
  }

  private attempt(key: string, policy: BackoffPolicy) {
    const now = this.clock();
    const stored = this.backoffs.get(key);
    const { decision, next } = attempt(stored && stored.expiresAt > now ? stored : undefined, now, policy);
    if (next) this.backoffs.set(key, { ...next, expiresAt: now + policy.memorySeconds * 1000 });
    return decision;
  }

  private forgive(key: string, how: 'one' | 'all') {
    const stored = this.backoffs.get(key);
    if (!stored) return;
    if (how === 'all' || stored.attempts <= 1) this.backoffs.delete(key);
    else stored.attempts -= 1;
  }

  private acquire(key: string, policy: SlotPolicy) {
    const now = this.clock();
    const holders = this.slots.get(key) ?? new Map<string, number>();
    for (const [id, until] of holders) if (until <= now) holders.delete(id);
    if (holders.size >= policy.limit) return undefined;
    const id = randomUUID();
    holders.set(id, now + policy.leaseSeconds * 1000);
    this.slots.set(key, holders);
    return {
      release: async () => {
        holders.delete(id);
        if (holders.size === 0 && this.slots.get(key) === holders) this.slots.delete(key);
      },
    };
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
    for (const [k, b] of this.backoffs) if (b.expiresAt <= now) this.backoffs.delete(k);
    for (const [k, holders] of this.slots) {
      for (const [id, until] of holders) if (until <= now) holders.delete(id);
      if (holders.size === 0) this.slots.delete(k);
    }
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {
    clearInterval(this.sweep);
    this.entries.clear();
    this.limits.clear();
    this.backoffs.clear();
    this.slots.clear();
  }
}
