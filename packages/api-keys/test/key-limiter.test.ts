import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createLogger } from '@svc/http';
import { MemoryStore, RedisStore, type Store } from '@svc/kv';
import { testRedisUrl, uniqueNamespace } from '@svc/testkit';
import { KeyLimiter, type KeyLimiterOptions } from '../src/index.js';

const redisUrl = testRedisUrl();
const opened: { close(): Promise<void> }[] = [];

// Both stores a service may run on: in process (no REDIS_URL), and Redis when the run has one.
const stores: [string, (clock: () => number) => Store][] = [['in-process store', (clock) => new MemoryStore(clock)]];
if (redisUrl) stores.push(['Redis', (clock) => new RedisStore({ url: redisUrl, namespace: uniqueNamespace(), clock })]);

afterAll(async () => {
  await Promise.all(opened.map((o) => o.close()));
});

const at = Date.UTC(2026, 10, 22, 10, 15, 0);

function limiterOn(make: (clock: () => number) => Store, options: Partial<KeyLimiterOptions> = {}) {
  let now = at;
  const store = make(() => now);
  const limiter = new KeyLimiter({
    limiter: store.limiter,
    onRedisFailure: 'closed',
    replicas: 1,
    logger: createLogger({ name: 'test', level: 'silent' }),
    clock: { now: () => new Date(now) },
    maxLimits: { hourly: 10_000, burst: 100 },
    ...options,
  });
  opened.push(limiter, store);
  return {
    limiter,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

/** Hits `keyId` `n` times, each after `stepMs`; how many were allowed. */
async function allowed(
  limiter: KeyLimiter,
  keyId: string,
  limits: Parameters<KeyLimiter['consume']>[1],
  n: number,
  advance?: (ms: number) => void,
  stepMs = 0,
) {
  let count = 0;
  for (let i = 0; i < n; i++) {
    if ((await limiter.consume(keyId, limits)).allowed) count++;
    advance?.(stepMs);
  }
  return count;
}

describe.each(stores)('KeyLimiter on the %s', (_name, make) => {
  describe('the platform maximum of a key’s limits', () => {
    it('holds a key whose own limits are above it to the maximum (a key made before the maximum, or by a tenant asking for 10 000 000 an hour)', async () => {
      const { limiter } = limiterOn(make, { maxLimits: { hourly: 20, burst: 5 } });
      const key = { hourlyLimit: 10_000_000, burstLimit: 100_000, organizationId: randomUUID() };
      const first = await limiter.consume(randomUUID(), key);
      expect(first).toMatchObject({ allowed: true, limit: 20, remaining: 19 });
      // Burst: 5 in the same instant, not 100 000.
      const id = randomUUID();
      expect(await allowed(limiter, id, key, 8)).toBe(5);
    });

    it('holds the hourly limit to the maximum too', async () => {
      const { limiter, advance } = limiterOn(make, { maxLimits: { hourly: 20, burst: 5 } });
      const key = { hourlyLimit: 10_000_000, burstLimit: 100_000, organizationId: randomUUID() };
      // One a second stays under the burst; the hour's 21st is refused by the hourly maximum.
      const id = randomUUID();
      expect(await allowed(limiter, id, key, 25, advance, 1000)).toBe(20);
      const refused = await limiter.consume(id, key);
      expect(refused).toMatchObject({ allowed: false, refusedBy: 'window', limit: 20, remaining: 0 });
    });

    it('leaves a key under the maximum its own limits', async () => {
      const { limiter } = limiterOn(make, { maxLimits: { hourly: 20, burst: 5 } });
      expect(await limiter.consume(randomUUID(), { hourlyLimit: 7, burstLimit: 2 })).toMatchObject({ allowed: true, limit: 7, remaining: 6 });
    });
  });
});
