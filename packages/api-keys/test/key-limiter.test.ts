import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it, jest } from '@jest/globals';
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
    organizationLimits: { hourly: 10_000, burst: 100 },
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

  describe('an organization’s budget', () => {
    const keysOf = (organizationId: string, n: number, hourlyLimit = 10, burstLimit = 10) =>
      Array.from({ length: n }, () => ({ id: randomUUID(), limits: { hourlyLimit, burstLimit, organizationId } }));

    it('holds an organization with three keys to its hourly budget, whatever the keys allow together', async () => {
      const { limiter, advance } = limiterOn(make, { organizationLimits: { hourly: 20, burst: 100 } });
      const organizationId = randomUUID();
      const keys = keysOf(organizationId, 3);
      const decisions = [];
      for (let i = 0; i < 30; i++) {
        const { id, limits } = keys[i % 3]!;
        decisions.push(await limiter.consume(id, limits));
        advance(100);
      }
      // 3 keys × 10 an hour would be 30; the organization gets 20.
      expect(decisions.filter((d) => d.allowed)).toHaveLength(20);
      const refused = decisions[20]!;
      expect(refused).toMatchObject({ allowed: false, refusedFor: 'organization', refusedBy: 'window', limit: 10, remaining: 0 });
      // Until the hour ends (10:15:00 + 2 s of hits): the rest of it.
      expect(refused.retryAfterSeconds).toBe(45 * 60 - 2);
      // Another organization's keys are untouched.
      const other = keysOf(randomUUID(), 1)[0]!;
      expect(await limiter.consume(other.id, other.limits)).toMatchObject({ allowed: true, remaining: 9 });
    });

    it('holds the keys together to the organization’s per-second budget', async () => {
      const { limiter, advance } = limiterOn(make, { organizationLimits: { hourly: 1000, burst: 4 } });
      const keys = keysOf(randomUUID(), 3);
      let allowedNow = 0;
      for (let i = 0; i < 9; i++) if ((await limiter.consume(keys[i % 3]!.id, keys[i % 3]!.limits)).allowed) allowedNow++;
      expect(allowedNow).toBe(4);
      const refused = await limiter.consume(keys[0]!.id, keys[0]!.limits);
      expect(refused).toMatchObject({ allowed: false, refusedFor: 'organization', refusedBy: 'burst', retryAfterSeconds: 1 });
      advance(1000);
      expect((await limiter.consume(keys[1]!.id, keys[1]!.limits)).allowed).toBe(true);
    });

    it('charges neither when either refuses: a key over its own limit costs its organization nothing', async () => {
      const { limiter, advance } = limiterOn(make, { organizationLimits: { hourly: 5, burst: 100 } });
      const organizationId = randomUUID();
      const [small, big] = [keysOf(organizationId, 1, 2)[0]!, keysOf(organizationId, 1, 100)[0]!];
      const small5 = [];
      for (let i = 0; i < 5; i++) {
        small5.push(await limiter.consume(small.id, small.limits));
        advance(100);
      }
      expect(small5.map((d) => d.allowed)).toEqual([true, true, false, false, false]);
      expect(small5[2]).toMatchObject({ refusedFor: 'key', refusedBy: 'window' });
      // The organization spent 2 of its 5: the other key gets the 3 left, and says so.
      const big4 = [];
      for (let i = 0; i < 4; i++) big4.push(await limiter.consume(big.id, big.limits));
      expect(big4.map((d) => [d.allowed, d.remaining])).toEqual([
        [true, 2],
        [true, 1],
        [true, 0],
        [false, 0],
      ]);
    });
  });
});

describe('KeyLimiter while Redis is unreachable and failing open', () => {
  it('holds each replica to its share of the organization’s budget as well as the key’s', async () => {
    const down = new RedisStore({ url: 'redis://127.0.0.1:1', namespace: uniqueNamespace(), commandTimeoutMs: 100 });
    const { limiter } = limiterOn(() => down, { onRedisFailure: 'open', replicas: 2, organizationLimits: { hourly: 10, burst: 100 } });
    const organizationId = randomUUID();
    const keys = Array.from({ length: 3 }, () => ({ id: randomUUID(), limits: { hourlyLimit: 100, burstLimit: 100, organizationId } }));
    let allowedHere = 0;
    for (let i = 0; i < 12; i++) if ((await limiter.consume(keys[i % 3]!.id, keys[i % 3]!.limits)).allowed) allowedHere++;
    // Half of the organization's 10 on this replica.
    expect(allowedHere).toBe(5);
    expect(limiter.degraded).toBe(true);
  });
});

describe('KeyLimiter, charging one cached key record again and again', () => {
  function spiedLimiter() {
    const store = new MemoryStore(() => at);
    const consumeAll = jest.spyOn(store.limiter, 'consumeAll');
    const { limiter } = limiterOn(() => store);
    const charged = () => consumeAll.mock.calls.map(([hits]) => hits);
    return { limiter, charged };
  }

  it('builds its hits once per record, not per request', async () => {
    const { limiter, charged } = spiedLimiter();
    const key = { hourlyLimit: 100, burstLimit: 10, organizationId: randomUUID() };
    const id = randomUUID();
    await limiter.consume(id, key);
    await limiter.consume(id, key);
    const [first, second] = charged();
    expect(second).toBe(first);
  });

  it('builds them afresh when the record’s limits or organization change, or another key brings it', async () => {
    const { limiter, charged } = spiedLimiter();
    const key = { hourlyLimit: 100, burstLimit: 10, organizationId: randomUUID() };
    const id = randomUUID();
    await limiter.consume(id, key);
    key.hourlyLimit = 50;
    expect(await limiter.consume(id, key)).toMatchObject({ limit: 50 });
    key.organizationId = randomUUID();
    await limiter.consume(id, key);
    const other = randomUUID();
    await limiter.consume(other, key);
    expect(new Set(charged()).size).toBe(4);
    expect(charged()[3]![0]!.key).toBe(`{org:${key.organizationId}}:key:${other}`);
  });
});
