import { afterAll, describe, expect, it } from '@jest/globals';
import { testRedisUrl, uniqueNamespace } from '@svc/testkit';
import { MemoryStore, RedisStore, type Store } from '../src/index.js';

const redisUrl = testRedisUrl();
const opened: Store[] = [];

// Two handles on one logical store: for Redis two connections (two replicas), in process the same instance twice.
const implementations: [string, (clock?: () => number) => Store[]][] = [
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

afterAll(async () => {
  await Promise.all(opened.map((s) => s.close()));
});

const hourly = (limit: number) => ({ limit, windowSeconds: 3600 });
const at = () => Date.UTC(2026, 0, 1, 10, 0, 0);

describe.each(implementations)('%s: consumeAll (nested budgets)', (_name, make) => {
  it('charges every key or none: a share over its limit costs the outer budget nothing', async () => {
    const [store] = make(at);
    const hits = (share: string) => [
      { key: `{outer}:${share}`, policy: hourly(2) },
      { key: 'outer', policy: hourly(5) },
    ];
    const first = [];
    for (let i = 0; i < 6; i++) first.push(await store!.limiter.consumeAll(hits('a')));
    expect(first.map((d) => d.every((x) => x.allowed))).toEqual([true, true, false, false, false, false]);
    expect(first[0]!.map((d) => d.remaining)).toEqual([1, 4]);
    // Refused by its share: the outer budget is reported as it was, uncharged.
    expect(first[2]).toMatchObject([
      { allowed: false, refusedBy: 'window', remaining: 0 },
      { allowed: true, remaining: 3 },
    ]);
    // The same key through consume() is the same bucket.
    expect(await store!.limiter.consume('outer', hourly(5))).toMatchObject({ allowed: true, remaining: 2 });
    const second = [];
    for (let i = 0; i < 3; i++) second.push((await store!.limiter.consumeAll(hits('b'))).every((x) => x.allowed));
    // Two left in the outer budget: b's second hit uses the last one, its third is refused by the outer budget.
    expect(second).toEqual([true, true, false]);
  });

  it('stays exact under concurrent hits from two handles', async () => {
    const [a, b] = make();
    const shares = ['x', 'y', 'z'];
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) => {
        const share = shares[i % 3]!;
        return (i % 2 ? a! : b!).limiter
          .consumeAll([
            { key: `{client}:${share}`, policy: hourly(15) },
            { key: 'client', policy: hourly(37) },
          ])
          .then((d) => ({ share, allowed: d.every((x) => x.allowed) }));
      }),
    );
    const allowed = results.filter((r) => r.allowed);
    expect(allowed).toHaveLength(37);
    for (const share of shares) expect(allowed.filter((r) => r.share === share).length).toBeLessThanOrEqual(15);
  });
});
