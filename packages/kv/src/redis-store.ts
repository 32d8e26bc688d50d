import { randomUUID } from 'node:crypto';
import { Cluster, Redis, type RedisOptions } from 'ioredis';
import type {
  BackoffDecision,
  BackoffPolicy,
  Cache,
  Clock,
  RateLimitDecision,
  RateLimitHit,
  RateLimitPolicy,
  RateLimiter,
  Slot,
  SlotPolicy,
  Store,
} from './types.js';
import { StoreUnavailableError } from './types.js';
import { redisTarget } from './redis-target.js';

// Redis's own time in ms, unless a test injects one (ARGV[1]).
const NOW = `
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
`;

// The Lua twin of limit-math.ts `attempt`: attempts (a) and the latest one's time (l) in one hash.
const ATTEMPT = `${NOW}
local free = tonumber(ARGV[2])
local max_delay = tonumber(ARGV[3])
local memory = tonumber(ARGV[4])
local h = redis.call('HMGET', KEYS[1], 'a', 'l')
local attempts = tonumber(h[1]) or 0
local last = tonumber(h[2]) or 0
-- Forgotten by the given clock too, not only by Redis's expiry.
if last + memory <= now then attempts = 0 end
local delay = 0
if attempts > free then delay = math.min(2 ^ (attempts - free - 1), max_delay) end
local ready = last + delay * 1000
if now < ready then return {0, attempts, ready - now} end
redis.call('HSET', KEYS[1], 'a', attempts + 1, 'l', now)
redis.call('PEXPIRE', KEYS[1], memory)
return {1, attempts + 1, 0}
`;

const FORGIVE_ONE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local left = redis.call('HINCRBY', KEYS[1], 'a', -1)
if left <= 0 then redis.call('DEL', KEYS[1]) end
return left
`;

// A sorted set of holders scored by lease end: expired holders go before counting.
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
local lease = tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], now + lease, ARGV[4])
redis.call('PEXPIRE', KEYS[1], lease)
return 1
`;

// The Lua twin of limit-math.ts `decide`, over one key (consume) or several (consumeAll). One hash
// per key holds window start (s), count (c) and the GCRA arrival time (t). ARGV: the time, then
// limit, window, burst limit and burst period per key. Every key is decided first, then all are
// charged or none, atomically across every replica. One reply of five numbers per key: allowed,
// remaining (as charged, or as it was), window reset, wait in ms, and which limit refused (1
// window, 2 burst).
const CONSUME_ALL = `${NOW}
local decided = {}
local all = true
for i = 1, #KEYS do
  local b = 1 + (i - 1) * 4
  local limit = tonumber(ARGV[b + 1])
  local window = tonumber(ARGV[b + 2])
  local blimit = tonumber(ARGV[b + 3])
  local bperiod = tonumber(ARGV[b + 4])
  local start = now - (now % window)
  local reset = start + window
  local h = redis.call('HMGET', KEYS[i], 's', 'c', 't')
  local count = 0
  if tonumber(h[1]) == start then count = tonumber(h[2]) end
  local new_tat = 0
  local wait = 0
  if blimit > 0 then
    local interval = bperiod / blimit
    local tat = tonumber(h[3]) or 0
    if tat < now then tat = now end
    new_tat = tat + interval
    wait = new_tat - blimit * interval - now
  end
  if count >= limit then
    all = false
    decided[i] = {0, 0, reset, reset - now, 1}
  elseif wait > 0 then
    all = false
    decided[i] = {0, limit - count, reset, math.ceil(wait), 2}
  else
    decided[i] = {1, limit - count, reset, 0, 0, start, count + 1, new_tat}
  end
end
local reply = {}
for i = 1, #KEYS do
  local d = decided[i]
  if all then
    redis.call('HSET', KEYS[i], 's', d[6], 'c', d[7], 't', string.format('%.3f', d[8]))
    local ttl = d[3] - now
    if d[8] - now > ttl then ttl = d[8] - now end
    redis.call('PEXPIRE', KEYS[i], math.ceil(ttl) + 1000)
    d[2] = d[2] - 1
  end
  for j = 1, 5 do reply[#reply + 1] = d[j] end
end
return reply
`;

const INCREMENT = `
local v = redis.call('INCR', KEYS[1])
if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return v
`;

interface Scripts {
  svcIncrement(key: string, ttlSeconds: number): Promise<number>;
  /** CONSUME_ALL for n keys, defined when first needed (consumeAllCommand). */
  [consumeAllN: `svcConsumeAll${number}`]: (...keysThenArgs: (string | number)[]) => Promise<number[]>;
  svcAttempt(key: string, now: string, free: number, maxDelaySeconds: number, memoryMs: number): Promise<[number, number, number]>;
  svcForgiveOne(key: string): Promise<number>;
  svcAcquire(key: string, now: string, limit: number, leaseMs: number, holder: string): Promise<number>;
}

type ScriptedRedis = (Redis | Cluster) & Scripts;

const CLUSTER_FIRST_CONNECT_MS = 5_000;

export interface RedisStoreOptions {
  url: string;
  /** Prefix of every key, so services sharing a Redis never collide. */
  namespace: string;
  /** For tests only: decide with this clock instead of Redis's TIME. */
  clock?: Clock;
  /** A command that takes longer fails instead of queueing (ioredis would otherwise wait ~74 s). */
  commandTimeoutMs?: number;
  onError?: (err: Error) => void;
}

export class RedisStore implements Store {
  readonly kind = 'redis';
  readonly limiter: RateLimiter;
  readonly cache: Cache;
  readonly redis: ScriptedRedis;
  /** A Redis Cluster: every script's keys share one hash tag (one slot), and a DEL names one key. */
  private readonly cluster: boolean;
  private readonly ns: string;
  private everReady = false;

  constructor(private readonly options: RedisStoreOptions) {
    this.ns = options.namespace;
    const target = redisTarget(options.url);
    this.cluster = target.kind === 'cluster';
    const connection: RedisOptions = {
      // Fail fast while disconnected: callers decide between failing open and failing closed.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      // On a cluster a command may follow a MOVED or ASK redirection, or wait out a failover's retry
      // delay, before its answer: it gets twice one server's time.
      commandTimeout: options.commandTimeoutMs ?? (this.cluster ? 2_000 : 1_000),
      connectTimeout: 2_000,
      // How long a dropped connection's socket may linger: ioredis keeps a timer that long even for
      // a socket already closed (reconnecting), which held processes and test workers open.
      disconnectTimeout: 100,
      retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
      lazyConnect: false,
    };
    // Commands that concurrent requests issue in one turn of the event loop go out in one write:
    // under load a system call per command was a sixth of a user-token request (docs/benchmarks.md).
    // While Redis stalls, a command queued behind a pipeline in flight waits for it to time out
    // first: a caller may wait up to about twice commandTimeout before it fails open or closed.
    this.redis = (
      target.kind === 'cluster'
        ? new Cluster(target.nodes, {
            enableOfflineQueue: false,
            enableAutoPipelining: true,
            // A failover or a resharding answers MOVED, ASK or CLUSTERDOWN for a moment: follow it
            // within the command timeout rather than failing the request at once.
            retryDelayOnFailover: 100,
            retryDelayOnClusterDown: 100,
            retryDelayOnTryAgain: 100,
            maxRedirections: 8,
            clusterRetryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
            redisOptions: {
              ...connection,
              ...(target.username ? { username: target.username } : {}),
              ...(target.password ? { password: target.password } : {}),
              ...(target.tls ? { tls: {} } : {}),
            },
          })
        : new Redis(options.url, { ...connection, enableAutoPipelining: true })
    ) as ScriptedRedis;
    this.redis.defineCommand('svcIncrement', { numberOfKeys: 1, lua: INCREMENT });
    this.redis.defineCommand('svcAttempt', { numberOfKeys: 1, lua: ATTEMPT });
    this.redis.defineCommand('svcForgiveOne', { numberOfKeys: 1, lua: FORGIVE_ONE });
    this.redis.defineCommand('svcAcquire', { numberOfKeys: 1, lua: ACQUIRE });
    this.redis.once('ready', () => {
      this.everReady = true;
    });
    let lastLogged = 0;
    this.redis.on('error', (err: Error) => {
      // A dead Redis emits an error per reconnect attempt; report at most one every 10 s.
      if (Date.now() - lastLogged > 10_000) {
        lastLogged = Date.now();
        options.onError?.(err);
      }
    });
    this.limiter = {
      consume: (key, policy) => this.consume(key, policy),
      consumeAll: (hits) => this.consumeAll(hits),
      attempt: (key, policy) => this.attempt(key, policy),
      forgive: async (key, how) => {
        const k = this.key(`bo:{${key}}`);
        await this.call(() => (how === 'all' ? this.redis.del(k) : this.redis.svcForgiveOne(k)));
      },
      acquire: (key, policy) => this.acquire(key, policy),
    };
    this.cache = {
      get: (key) => this.call(() => this.redis.get(this.key(key))),
      set: async (key, value, ttlSeconds) => {
        await this.call(() => this.redis.set(this.key(key), value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000))));
      },
      delete: (...keys) => this.deleteKeys(keys.map((k) => this.key(k))),
      increment: (key, ttlSeconds) => this.call(() => this.redis.svcIncrement(this.key(key), Math.max(1, Math.ceil(ttlSeconds)))),
    };
  }

  /** Several keys of a cluster may sit on several nodes: one DEL each, in one round trip (auto-pipelined). */
  private deleteKeys(keys: string[]): Promise<number> {
    if (keys.length === 0) return Promise.resolve(0);
    if (!this.cluster) return this.call(() => this.redis.del(...keys));
    return this.call(async () => (await Promise.all(keys.map((k) => this.redis.del(k)))).reduce((a, b) => a + b, 0));
  }

  private key(key: string): string {
    return `${this.ns}:${key}`;
  }

  /** One hit is a set of one: the same script decides and charges it. */
  private async consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    const [decision] = await this.consumeAll([{ key, policy }]);
    return decision!;
  }

  /** A limit's key: its own `{hash tag}` when it carries one (so related keys share a slot), else all of it. */
  private limitKey(key: string): string {
    return this.key(/\{[^{}]+\}/.test(key) ? `rl:${key}` : `rl:{${key}}`);
  }

  private async consumeAll(hits: readonly RateLimitHit[]): Promise<RateLimitDecision[]> {
    if (hits.length === 0) return [];
    // The script's arguments in one array (the keys, the clock, four numbers a hit), its answer read
    // in place: every request of a keyed service passes here.
    const args: (string | number)[] = [];
    for (const hit of hits) args.push(this.limitKey(hit.key));
    // One script runs on one node: on a cluster, limits charged together must share a hash tag.
    if (this.cluster && new Set(args.map((k) => /\{([^{}]+)\}/.exec(String(k))?.[1])).size > 1)
      throw new Error(`Limits charged together must share one {hash tag} on a Redis Cluster: ${hits.map((h) => h.key).join(', ')}`);
    args.push(this.now());
    for (const { policy } of hits) args.push(policy.limit, policy.windowSeconds * 1000, policy.burst?.limit ?? 0, (policy.burst?.perSeconds ?? 0) * 1000);
    const command = this.consumeAllCommand(hits.length);
    const reply = await this.call(() => this.redis[command]!(...args));
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < hits.length; i++) decisions.push(decisionOf(hits[i]!.policy, reply, i * 5));
    return decisions;
  }

  /**
   * CONSUME_ALL as a command with a fixed number of keys. Given the number per call instead,
   * ioredis's auto-pipelining on a cluster would group the call by its first argument (that number)
   * rather than its first key, put limits of different primaries in one pipeline and fail them all.
   */
  private consumeAllCommand(keys: number): `svcConsumeAll${number}` {
    const name = `svcConsumeAll${keys}` as const;
    if (!this.redis[name]) this.redis.defineCommand(name, { numberOfKeys: keys, lua: CONSUME_ALL });
    return name;
  }

  private now(): string {
    return this.options.clock ? String(this.options.clock()) : '';
  }

  private async attempt(key: string, policy: BackoffPolicy): Promise<BackoffDecision> {
    const [allowed, attempts, waitMs] = await this.call(() =>
      this.redis.svcAttempt(this.key(`bo:{${key}}`), this.now(), policy.free, policy.maxDelaySeconds, Math.ceil(policy.memorySeconds * 1000)),
    );
    return { allowed: allowed === 1, attempts, retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  private async acquire(key: string, policy: SlotPolicy): Promise<Slot | undefined> {
    const k = this.key(`slots:{${key}}`);
    const holder = randomUUID();
    const taken = await this.call(() => this.redis.svcAcquire(k, this.now(), policy.limit, Math.ceil(policy.leaseSeconds * 1000), holder));
    if (taken !== 1) return undefined;
    return {
      release: async () => {
        await this.call(() => this.redis.zrem(k, holder));
      },
    };
  }

  /**
   * Waits for the first connection up to the command timeout, so a service's first requests do
   * not fail while it connects. Once Redis has been up, a lost connection fails calls at once.
   */
  private whenReady(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    if (this.everReady) return Promise.reject(new Error(`connection lost (${this.redis.status})`));
    // A cluster client's first connection also asks a node for the slot map and connects to every
    // primary: allow it longer than one command.
    const timeout = Math.max(this.options.commandTimeoutMs ?? 1_000, this.cluster ? CLUSTER_FIRST_CONNECT_MS : 0);
    return new Promise((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.redis.off('ready', onReady);
        reject(new Error(`not connected (${this.redis.status}) after ${timeout} ms`));
      }, timeout);
      this.redis.once('ready', onReady);
    });
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      await this.whenReady();
      return await command();
    } catch (err) {
      throw new StoreUnavailableError(`Redis is unavailable: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
  }

  async ping(): Promise<void> {
    await this.call(() => this.redis.ping());
  }

  /** Quits a live connection; drops any other (Redis down, or reconnecting) at once. */
  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => undefined);
      if ((this.redis.status as string) === 'end') return;
    }
    this.redis.disconnect();
  }
}

/** A hit's decision from its five numbers in the script's answer, from `at` on. */
function decisionOf(policy: RateLimitPolicy, reply: number[], at: number): RateLimitDecision {
  const allowed = reply[at] === 1;
  const refusedBy = reply[at + 4];
  const decision: RateLimitDecision = {
    allowed,
    limit: policy.limit,
    remaining: reply[at + 1]!,
    resetAt: Math.ceil(reply[at + 2]! / 1000),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil(reply[at + 3]! / 1000)),
  };
  if (refusedBy) decision.refusedBy = refusedBy === 1 ? 'window' : 'burst';
  return decision;
}
