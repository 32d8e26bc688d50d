import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type StartedRedisCluster, startRedisCluster, testRedisUrl, uniqueNamespace } from '@svc/testkit';
import { MemoryStore, RedisStore, redisTarget, StoreUnavailableError, type Store } from '../src/index.js';

/** A settable clock shared by every store a test makes, so windows can be crossed instantly. */
function manualClock(start = Date.UTC(2026, 0, 1, 10, 0, 0)) {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

const redisUrl = testRedisUrl();
const opened: Store[] = [];

type Factory = (clock?: () => number) => Store[];

// Each factory returns two handles on one logical store: for Redis two connections (two
// "replicas"), for the in-process store the same instance twice.
const implementations: [string, Factory][] = [
  [
    'MemoryStore',
    (clock) => {
      const store = new MemoryStore(clock);
      opened.push(store);
      return [store, store];
    },
  ],
];
if (redisUrl) {
  implementations.push([
    'RedisStore',
    (clock) => {
      const namespace = uniqueNamespace();
      const stores = [0, 1].map(() => new RedisStore({ url: redisUrl, namespace, ...(clock ? { clock } : {}) }));
      opened.push(...stores);
      return stores;
    },
  ]);
}
// Where Redis runs (REDIS_URL is set: CI, and this machine), the contract also holds on a Redis
// Cluster of three primaries and three replicas, made for this file.
let cluster: StartedRedisCluster | undefined;
// (Under npm run test:scaled-out REDIS_URL names a cluster already: the run above is on it.)
if (redisUrl && !redisTarget(redisUrl).kind.startsWith('cluster')) {
  beforeAll(async () => {
    cluster = await startRedisCluster();
  }, 60_000);
  implementations.push([
    'RedisStore on a Redis Cluster',
    (clock) => {
      const namespace = uniqueNamespace();
      const stores = [0, 1].map(() => new RedisStore({ url: cluster!.url, namespace, ...(clock ? { clock } : {}) }));
      opened.push(...stores);
      return stores;
    },
  ]);
}
// Without REDIS_URL (the embedded default) the contract runs against the in-process store only.

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
  await cluster?.stop();
});

describe.each(implementations)('%s (store contract)', (_name, make) => {
  describe('cache', () => {
    it('stores, reads and deletes values', async () => {
      const [a, b] = make();
      await a!.cache.set('k1', 'v1', 60);
      expect(await b!.cache.get('k1')).toBe('v1');
      expect(await a!.cache.get('absent')).toBeNull();
      expect(await b!.cache.delete('k1', 'absent')).toBe(1);
      expect(await a!.cache.get('k1')).toBeNull();
    });

    it('forgets values after their TTL', async () => {
      const [store] = make();
      await store!.cache.set('short', 'x', 0.3);
      await store!.cache.set('one-use', 'x', 0.3);
      expect(await store!.cache.get('short')).toBe('x');
      await new Promise((r) => setTimeout(r, 450));
      expect(await store!.cache.get('short')).toBeNull();
      // Deleting finds nothing, as Redis's DEL: a one-use value (a nonce) past its TTL is not taken.
      expect(await store!.cache.delete('one-use')).toBe(0);
    });

    it('increments atomically under concurrency', async () => {
      const [a, b] = make();
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a! : b!).cache.increment('counter', 60)));
      expect(new Set(results).size).toBe(200);
      expect(Math.max(...results)).toBe(200);
    });
  });

  describe('rate limiter', () => {
    const hourly = (limit: number, burst?: number) => ({ limit, windowSeconds: 3600, ...(burst ? { burst: { limit: burst, perSeconds: 1 } } : {}) });

    it('allows the window limit, then refuses until the window ends', async () => {
      const clock = manualClock();
      const [store] = make(clock);
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await store!.limiter.consume('key', hourly(3)));
      expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).toEqual([2, 1, 0, 0]);
      const windowEnd = Date.UTC(2026, 0, 1, 11, 0, 0) / 1000;
      expect(decisions.every((d) => d.resetAt === windowEnd && d.limit === 3)).toBe(true);
      expect(decisions[3]).toMatchObject({ refusedBy: 'window', retryAfterSeconds: 3600 });
    });

    it('starts a new window at the hour boundary', async () => {
      const clock = manualClock(Date.UTC(2026, 0, 1, 10, 59, 59));
      const [store] = make(clock);
      await store!.limiter.consume('key', hourly(1));
      expect((await store!.limiter.consume('key', hourly(1))).allowed).toBe(false);
      clock.advance(1000);
      const next = await store!.limiter.consume('key', hourly(1));
      expect(next).toMatchObject({ allowed: true, remaining: 0, resetAt: Date.UTC(2026, 0, 1, 12, 0, 0) / 1000 });
    });

    it('limits bursts smoothly and never charges a refused hit', async () => {
      const clock = manualClock();
      const [store] = make(clock);
      const policy = hourly(100, 10);
      const first = [];
      for (let i = 0; i < 12; i++) first.push((await store!.limiter.consume('key', policy)).allowed);
      expect(first.filter(Boolean)).toHaveLength(10);
      const refused = await store!.limiter.consume('key', policy);
      expect(refused).toMatchObject({ allowed: false, refusedBy: 'burst', retryAfterSeconds: 1, remaining: 90 });
      clock.advance(100); // one emission interval frees one slot
      expect((await store!.limiter.consume('key', policy)).allowed).toBe(true);
      expect((await store!.limiter.consume('key', policy)).allowed).toBe(false);
      clock.advance(1000);
      const after = await store!.limiter.consume('key', policy);
      // 11 allowed so far (10 + 1); refused hits did not count.
      expect(after).toMatchObject({ allowed: true, remaining: 100 - 12 });
    });

    it('keeps keys apart', async () => {
      const clock = manualClock();
      const [store] = make(clock);
      await store!.limiter.consume('a', hourly(1));
      expect((await store!.limiter.consume('a', hourly(1))).allowed).toBe(false);
      expect((await store!.limiter.consume('b', hourly(1))).allowed).toBe(true);
    });

    it('allows exactly the limit under concurrent hits from two handles', async () => {
      const [a, b] = make();
      const results = await Promise.all(Array.from({ length: 120 }, (_, i) => (i % 2 ? a! : b!).limiter.consume('shared', hourly(37))));
      expect(results.filter((r) => r.allowed)).toHaveLength(37);
      const remaining = results
        .filter((r) => r.allowed)
        .map((r) => r.remaining)
        .sort((x, y) => x - y);
      expect(remaining).toEqual(Array.from({ length: 37 }, (_, i) => i));
    });
  });

  describe('backoff', () => {
    const policy = { free: 2, maxDelaySeconds: 4, memorySeconds: 60 };

    it('counts free attempts, then makes each wait for the delay the latest one earned, never locking', async () => {
      const clock = manualClock();
      const [store] = make(clock);
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await store!.limiter.attempt('b', policy));
      expect(decisions.map((d) => [d.allowed, d.attempts, d.retryAfterSeconds])).toEqual([
        [true, 1, 0],
        [true, 2, 0],
        [true, 3, 0],
        [false, 3, 1],
      ]);
      clock.advance(1000);
      expect(await store!.limiter.attempt('b', policy)).toEqual({ allowed: true, attempts: 4, retryAfterSeconds: 0 });
      // Doubling up to the ceiling, and the refused attempts did not count.
      expect(await store!.limiter.attempt('b', policy)).toMatchObject({ allowed: false, retryAfterSeconds: 2 });
      clock.advance(2000);
      expect((await store!.limiter.attempt('b', policy)).allowed).toBe(true);
      clock.advance(4000);
      expect((await store!.limiter.attempt('b', policy)).allowed).toBe(true);
      expect(await store!.limiter.attempt('b', policy)).toMatchObject({ allowed: false, attempts: 6, retryAfterSeconds: 4 });
    });

    it('takes back one attempt or all of them, and forgets attempts after the memory', async () => {
      const clock = manualClock();
      const [store] = make(clock);
      for (let i = 0; i < 3; i++) await store!.limiter.attempt('f', policy);
      await store!.limiter.forgive('f', 'one');
      expect(await store!.limiter.attempt('f', policy)).toMatchObject({ allowed: true, attempts: 3 });
      await store!.limiter.forgive('f', 'all');
      await store!.limiter.forgive('never-attempted', 'one');
      expect(await store!.limiter.attempt('f', policy)).toMatchObject({ allowed: true, attempts: 1 });
      expect(await store!.limiter.attempt('never-attempted', policy)).toMatchObject({ allowed: true, attempts: 1 });
      clock.advance(60_001);
      expect(await store!.limiter.attempt('f', policy)).toMatchObject({ allowed: true, attempts: 1 });
    });

    it('lets exactly the free attempts and one more through when they arrive at once from two handles', async () => {
      const [a, b] = make();
      const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a! : b!).limiter.attempt('parallel', policy)));
      expect(results.filter((r) => r.allowed)).toHaveLength(policy.free + 1);
      expect(results.filter((r) => !r.allowed).every((r) => r.retryAfterSeconds >= 1)).toBe(true);
    });
  });

  describe('slots', () => {
    it('hands out at most the limit at once, takes released slots back, and frees lapsed leases', async () => {
      const clock = manualClock();
      const [a, b] = make(clock);
      const policy = { limit: 2, leaseSeconds: 30 };
      const held = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a! : b!).limiter.acquire('s', policy)));
      expect(held.filter(Boolean)).toHaveLength(2);
      await held.find(Boolean)!.release();
      const again = await b!.limiter.acquire('s', policy);
      expect(again).toBeDefined();
      expect(await a!.limiter.acquire('s', policy)).toBeUndefined();
      expect(await a!.limiter.acquire('other', policy)).toBeDefined();
      clock.advance(30_000);
      expect(await a!.limiter.acquire('s', policy)).toBeDefined();
    });
  });
});

describe('RedisStore when Redis is unreachable', () => {
  it('fails fast with StoreUnavailableError instead of queueing', async () => {
    const store = new RedisStore({ url: 'redis://127.0.0.1:1', namespace: uniqueNamespace(), commandTimeoutMs: 200 });
    opened.push(store);
    const started = Date.now();
    await expect(store.limiter.consume('k', { limit: 1, windowSeconds: 60 })).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.cache.get('k')).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.ping()).rejects.toBeInstanceOf(StoreUnavailableError);
    // Bounded: not ioredis's default of queueing for over a minute.
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
