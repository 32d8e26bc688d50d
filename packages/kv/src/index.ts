import { MemoryStore } from './memory-store.js';
import { RedisStore } from './redis-store.js';
import type { Clock, Store } from './types.js';

export * from './types.js';
export { attempt, backoffDelay, type BackoffState, decide, type LimitState } from './limit-math.js';
export { MemoryStore } from './memory-store.js';
export { RedisStore, type RedisStoreOptions } from './redis-store.js';
export { clusterUrl, type RedisTarget, redisTarget } from './redis-target.js';

export interface StoreOptions {
  /** Unset: an in-process store (one process only). */
  redisUrl?: string | undefined;
  namespace: string;
  clock?: Clock;
  onError?: (err: Error) => void;
}

/** The single factory for Redis access: ioredis when a URL is given, the in-process store otherwise. */
export function createStore(options: StoreOptions): Store {
  if (!options.redisUrl) return new MemoryStore(options.clock);
  return new RedisStore({
    url: options.redisUrl,
    namespace: options.namespace,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
export { LocalTtlCache } from './local-cache.js';
