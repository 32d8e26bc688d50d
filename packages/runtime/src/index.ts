import { createDatabase, isDatabaseUnavailable, pingDatabase, type Db, type Sql } from '@svc/db';
import { createLogger, dependencyCheck, Metrics, type Logger, type ReadinessCheck } from '@svc/http';
import { ReplicaReads } from './replica-reads.js';
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
  /** The read replica's client (DATABASE_READ_URL), or `db` itself when there is none. */
  readDb: Db;
  /** Routes lag-tolerant reads to `readDb`, or to `db` after the caller's own write. */
  reads: ReplicaReads;
  sql: Sql;
  store: Store;
  /** Closes the store and the database; the HTTP server is drained before this runs. */
  close(): Promise<void>;
  /** PostgreSQL or Redis unreachable: answered 503, not 500. */
  isOutage(err: unknown): boolean;
}

export interface CoreConfig {
  DATABASE_URL: string;
  DATABASE_READ_URL?: string | undefined;
  DATABASE_READ_AFTER_WRITE_SECONDS?: number | undefined;
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
  // A modest pool: only the routed lists use it.
  const replica = config.DATABASE_READ_URL ? createDatabase(config.DATABASE_READ_URL, { poolSize: 5 }) : undefined;
  const reads = new ReplicaReads({
    primary: db,
    replica: replica?.db,
    cache: store.cache,
    afterWriteSeconds: config.DATABASE_READ_AFTER_WRITE_SECONDS ?? 5,
    logger,
  });
  if (store.kind === 'memory') {
    logger.warn('Neither REDIS_URL nor REDIS_CLUSTER_NODES is set: rate limits and caches are in-process and not shared with other replicas');
  }
  return {
    logger,
    clock: clock ?? systemClock(),
    metrics: new Metrics(service),
    db,
    readDb: replica?.db ?? db,
    reads,
    sql: database.sql,
    store,
    close: async () => {
      await store.close();
      await Promise.all([database.close(), replica?.close()]);
    },
    isOutage: (err) => err instanceof StoreUnavailableError || isDatabaseUnavailable(err),
  };
}

/** The readiness checks every service runs: PostgreSQL and Redis (or the in-process stand-in). */
export function coreChecks(core: Pick<CoreDeps, 'db' | 'store'> & Partial<Pick<CoreDeps, 'readDb' | 'reads'>>): ReadinessCheck[] {
  const checks = [
    dependencyCheck('database', () => pingDatabase(core.db)),
    dependencyCheck('redis', () => core.store.ping(), { mode: core.store.kind === 'redis' ? 'redis' : 'in-process' }),
  ];
  if (core.reads?.enabled && core.readDb) checks.push(replicaCheck(core.readDb));
  return checks;
}

/**
 * The read replica, reported but never failing readiness: while it is down the routed reads go to
 * the primary, so the service still answers everything.
 */
function replicaCheck(readDb: Db): ReadinessCheck {
  return {
    name: 'database_replica',
    run: async () => {
      // Well within the check's own time limit, so a replica that does not answer shows as
      // unreachable, not as a check that failed readiness.
      const reachable = await pingDatabase(readDb, 1_000).then(
        () => true,
        () => false,
      );
      return { ok: true, details: { reachable } };
    },
  };
}

export { ReplicaReads, type ReplicaReadsOptions } from './replica-reads.js';
export { DPOP_ALGORITHMS, type DpopCheck, DpopProofs, type DpopRefusals } from './dpop-proofs.js';
