import { createDatabase, isDatabaseUnavailable, pingDatabase, type Db, type Sql } from '@svc/db';
import { createLogger, dependencyCheck, Metrics, type Logger, type ReadinessCheck } from '@svc/http';
import { clusterUrl, createStore, StoreUnavailableError, type Store } from '@svc/kv';

/**
 * A service's one clock. Every route and service reads the time through the same object, so a test
 * moves time for all of them at once by replacing `now`.
 */
export interface Clock {
  now(): Date;
}

export const systemClock = (): Clock => ({ now: () => new Date() });

/** What every service holds: one logger, one database (Prisma, and its driver for hot queries), one store (Redis or in-process), its metrics, its clock. */
export interface CoreDeps {
  logger: Logger;
  clock: Clock;
  metrics: Metrics;
  db: Db;
  sql: Sql;
  store: Store;
  /** Closes the store and the database; the HTTP server is drained before this runs. */
  close(): Promise<void>;
  /** PostgreSQL or Redis unreachable: answered 503, not 500. */
  isOutage(err: unknown): boolean;
}

export interface CoreConfig {
  DATABASE_URL: string;
  REDIS_URL?: string | undefined;
  /** A Redis Cluster's nodes, host:port,host:port: the same as a redis+cluster: REDIS_URL. */
  REDIS_CLUSTER_NODES?: string | undefined;
  REDIS_KEY_PREFIX?: string | undefined;
  LOG_LEVEL: string;
}

/**
 * `clock` given (tests): rate-limit windows follow it too. Otherwise the system clock, and the Redis
 * limiter keeps Redis's own time, so every replica counts the same windows.
 */
export function createCoreDeps(service: string, namespace: string, config: CoreConfig, clock?: Clock): CoreDeps {
  const logger = createLogger({ name: service, level: config.LOG_LEVEL });
  const database = createDatabase(config.DATABASE_URL);
  const { db } = database;
  if (config.REDIS_URL && config.REDIS_CLUSTER_NODES)
    throw new Error('Invalid configuration: REDIS_URL and REDIS_CLUSTER_NODES both name a Redis: give one of them');
  const store = createStore({
    redisUrl: config.REDIS_URL ?? (config.REDIS_CLUSTER_NODES ? clusterUrl(config.REDIS_CLUSTER_NODES) : undefined),
    namespace: config.REDIS_KEY_PREFIX ?? namespace,
    ...(clock ? { clock: () => clock.now().getTime() } : {}),
    onError: (err) => logger.warn({ err: err.message }, 'redis connection error'),
  });
  if (store.kind === 'memory') {
    logger.warn('Neither REDIS_URL nor REDIS_CLUSTER_NODES is set: rate limits and caches are in-process and not shared with other replicas');
  }
  return {
    logger,
    clock: clock ?? systemClock(),
    metrics: new Metrics(service),
    db,
    sql: database.sql,
    store,
    close: async () => {
      await store.close();
      await database.close();
    },
    isOutage: (err) => err instanceof StoreUnavailableError || isDatabaseUnavailable(err),
  };
}

/** The readiness checks every service runs: PostgreSQL and Redis (or the in-process stand-in). */
export function coreChecks(core: Pick<CoreDeps, 'db' | 'store'>): ReadinessCheck[] {
  return [
    dependencyCheck('database', () => pingDatabase(core.db)),
    dependencyCheck('redis', () => core.store.ping(), { mode: core.store.kind === 'redis' ? 'redis' : 'in-process' }),
  ];
}

export { DPOP_ALGORITHMS, type DpopCheck, DpopProofs, type DpopRefusals } from './dpop-proofs.js';
