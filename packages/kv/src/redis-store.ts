import { Redis } from 'ioredis';
import type { Cache, Clock, RateLimitDecision, RateLimitPolicy, RateLimiter, Store } from './types.js';
import { StoreUnavailableError } from './types.js';

// The Lua twin of limit-math.ts `decide`. One hash per key holds window start (s), count (c) and
// the GCRA arrival time (t), so a single atomic script decides and charges across every replica.
// The time is Redis's own unless a test injects one (ARGV[1]).
const CONSUME = `
local now
if ARGV[1] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
else
  now = tonumber(ARGV[1])
end
local limit = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local blimit = tonumber(ARGV[4])
local bperiod = tonumber(ARGV[5])
local start = now - (now % window)
local reset = start + window
local h = redis.call('HMGET', KEYS[1], 's', 'c', 't')
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
if count >= limit then return {0, 0, reset, reset - now, 1} end
if wait > 0 then return {0, limit - count, reset, math.ceil(wait), 2} end
count = count + 1
redis.call('HSET', KEYS[1], 's', start, 'c', count, 't', string.format('%.3f', new_tat))
local ttl = reset - now
if new_tat - now > ttl then ttl = new_tat - now end
redis.call('PEXPIRE', KEYS[1], math.ceil(ttl) + 1000)
return {1, limit - count, reset, 0, 0}
`;

const INCREMENT = `
local v = redis.call('INCR', KEYS[1])
if v == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return v
`;

type ConsumeReply = [number, number, number, number, number];

interface ScriptedRedis extends Redis {
  svcConsume(key: string, now: string, limit: number, windowMs: number, burstLimit: number, burstMs: number): Promise<ConsumeReply>;
  svcIncrement(key: string, ttlSeconds: number): Promise<number>;
}

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
  private readonly ns: string;
  private everReady = false;

  constructor(private readonly options: RedisStoreOptions) {
    this.ns = options.namespace;
    this.redis = new Redis(options.url, {
      // Fail fast while disconnected: callers decide between failing open and failing closed.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 1_000,
      connectTimeout: 2_000,
      retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
      lazyConnect: false,
    }) as ScriptedRedis;
    this.redis.defineCommand('svcConsume', { numberOfKeys: 1, lua: CONSUME });
    this.redis.defineCommand('svcIncrement', { numberOfKeys: 1, lua: INCREMENT });
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
    this.limiter = { consume: (key, policy) => this.consume(key, policy) };
    this.cache = {
      get: (key) => this.call(() => this.redis.get(this.key(key))),
      set: async (key, value, ttlSeconds) => {
        await this.call(() => this.redis.set(this.key(key), value, 'PX', Math.max(1, Math.round(ttlSeconds * 1000))));
      },
      delete: (...keys) => (keys.length ? this.call(() => this.redis.del(...keys.map((k) => this.key(k)))) : Promise.resolve(0)),
      increment: (key, ttlSeconds) => this.call(() => this.redis.svcIncrement(this.key(key), Math.max(1, Math.ceil(ttlSeconds)))),
    };
  }

  private key(key: string): string {
    return `${this.ns}:${key}`;
  }

  private async consume(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
    const now = this.options.clock ? String(this.options.clock()) : '';
    // The braces are a hash tag: in Redis Cluster all of one key's state stays in one slot.
    const [allowed, remaining, reset, waitMs, refusedBy] = await this.call(() =>
      this.redis.svcConsume(
        this.key(`rl:{${key}}`),
        now,
        policy.limit,
        policy.windowSeconds * 1000,
        policy.burst?.limit ?? 0,
        (policy.burst?.perSeconds ?? 0) * 1000,
      ),
    );
    return {
      allowed: allowed === 1,
      limit: policy.limit,
      remaining,
      resetAt: Math.ceil(reset / 1000),
      retryAfterSeconds: allowed === 1 ? 0 : Math.max(1, Math.ceil(waitMs / 1000)),
      ...(refusedBy ? { refusedBy: refusedBy === 1 ? 'window' : 'burst' } : {}),
    } as RateLimitDecision;
  }

  /**
   * Waits for the first connection up to the command timeout, so a service's first requests do
   * not fail while it connects. Once Redis has been up, a lost connection fails calls at once.
   */
  private whenReady(): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    if (this.everReady) return Promise.reject(new Error(`connection lost (${this.redis.status})`));
    const timeout = this.options.commandTimeoutMs ?? 1_000;
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

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
