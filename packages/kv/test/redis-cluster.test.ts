// The store on a real Redis Cluster (three primaries, three replicas) beyond the contract: limits
// charged together stay atomic because they share a hash tag (and are refused loudly when they do
// not), and a primary that crashes is replaced by its replica without losing what it had
// replicated. Runs where Redis runs (REDIS_URL set: CI, and this machine).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type StartedRedisCluster, startRedisCluster, testRedisUrl, uniqueNamespace } from '@svc/testkit';
import { clusterUrl, RedisStore, redisTarget, StoreUnavailableError } from '../src/index.js';

const redisUrl = testRedisUrl();
const HOUR = { limit: 10, windowSeconds: 3600 };

describe('what REDIS_URL names', () => {
  it('reads a cluster URL: every node, its credentials, TLS', () => {
    expect(redisTarget('redis://127.0.0.1:6379/2')).toEqual({ kind: 'single', url: 'redis://127.0.0.1:6379/2' });
    expect(redisTarget('rediss+cluster://svc:p%40ss@a.internal:7000,10.0.0.2:7001,[::1]:7002')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a.internal', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      username: 'svc',
      password: 'p@ss',
      tls: true,
    });
    expect(redisTarget('redis+cluster://:secret@h:1')).toMatchObject({ password: 'secret', tls: false });
    expect(() => redisTarget('redis+cluster://h:1,h')).toThrow('h is not a host:port of a cluster node');
    expect(clusterUrl('a:7000, b:7001')).toBe('redis+cluster://a:7000,b:7001');
  });
});

// The in-process store has no cluster (its contract is store.contract.test.ts): these run where Redis does.
if (redisUrl)
  describe('RedisStore on a Redis Cluster', () => {
    let cluster: StartedRedisCluster;
    const opened: RedisStore[] = [];
    const store = (namespace: string) => {
      const made = new RedisStore({ url: cluster.url, namespace, commandTimeoutMs: 2_000 });
      opened.push(made);
      return made;
    };
    beforeAll(async () => {
      cluster = await startRedisCluster();
    }, 60_000);
    afterAll(async () => {
      await Promise.all(opened.map((s) => s.close()));
      await cluster?.stop();
    });

    it('charges a key and its organization in one step across two replicas: exactly the limit, all or nothing', async () => {
      const namespace = uniqueNamespace('cluster');
      const [a, b] = [store(namespace), store(namespace)];
      const hits = [
        { key: '{org:o1}:key:k1', policy: { limit: 100, windowSeconds: 3600 } },
        { key: '{org:o1}', policy: HOUR },
      ];
      const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).limiter.consumeAll(hits)));
      expect(decisions.filter((d) => d.every((x) => x.allowed))).toHaveLength(10);
      // Refused by the organization's budget, the key was not charged either.
      const [key] = await a.limiter.consumeAll([{ key: '{org:o1}:key:k1', policy: { limit: 100, windowSeconds: 3600 } }]);
      expect(key!.remaining).toBe(100 - 10 - 1);
    });

    it('refuses limits charged together under different hash tags, which no script could see at once', async () => {
      const a = store(uniqueNamespace('cluster'));
      await expect(
        a.limiter.consumeAll([
          { key: '{org:o1}', policy: HOUR },
          { key: '{org:o2}', policy: HOUR },
        ]),
      ).rejects.toThrow(/share one \{hash tag\}/);
    });

    it('charges limits that live on every primary in the same turn of the event loop', async () => {
      // ioredis pipelines the commands of one turn per node; a call must be routed by its own keys.
      const a = store(uniqueNamespace('cluster'));
      const keys = Array.from({ length: 24 }, (_, i) => `spread:${i}`);
      const ones = await Promise.all(keys.map((key) => a.limiter.consume(key, HOUR)));
      expect(ones.map((d) => d.remaining)).toEqual(keys.map(() => HOUR.limit - 1));
      const pairs = await Promise.all(
        keys.map((key) =>
          a.limiter.consumeAll([
            { key: `{${key}}:key`, policy: HOUR },
            { key: `{${key}}`, policy: HOUR },
          ]),
        ),
      );
      expect(pairs.map((d) => d.map((x) => x.remaining))).toEqual(keys.map(() => [HOUR.limit - 1, HOUR.limit - 2]));
    });

    it('deletes keys that live on different nodes in one call', async () => {
      const a = store(uniqueNamespace('cluster'));
      const keys = Array.from({ length: 12 }, (_, i) => `spread:${i}`);
      for (const key of keys) await a.cache.set(key, 'v', 60);
      expect(await a.cache.delete(...keys, 'absent')).toBe(12);
      for (const key of keys) expect(await a.cache.get(key)).toBeNull();
    });

    it('survives the crash of a primary: its replica takes over with the counts it had', async () => {
      const namespace = uniqueNamespace('failover');
      const a = store(namespace);
      const hit = { key: '{org:failover}', policy: HOUR };
      for (let i = 0; i < 4; i++) expect((await a.limiter.consume(hit.key, hit.policy)).allowed).toBe(true);
      const primary = await cluster.primaryOf(`${namespace}:rl:{org:failover}`);
      // Replication is asynchronous: what a primary acknowledged and had not yet sent is lost with it
      // (docs: "Redis Cluster"). Waiting for the replica here makes the count exact.
      expect(Number(await cluster.cli(primary, 'wait', '1', '2000'))).toBe(1);
      await cluster.kill(primary);

      // Commands fail fast while the cluster moves (never hang), then are served by the new primary.
      const deadline = Date.now() + 20_000;
      let after: Awaited<ReturnType<typeof a.limiter.consume>> | undefined;
      while (!after && Date.now() < deadline) {
        after = await a.limiter.consume(hit.key, hit.policy).catch((err: unknown) => {
          expect(err).toBeInstanceOf(StoreUnavailableError);
          return undefined;
        });
        if (!after) await new Promise((r) => setTimeout(r, 200));
      }
      expect(after).toMatchObject({ allowed: true, remaining: 10 - 5 });
      expect(await cluster.primaryOf(`${namespace}:rl:{org:failover}`)).not.toBe(primary);
    }, 60_000);
  });
