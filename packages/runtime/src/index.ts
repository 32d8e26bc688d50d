import { createPrismaClient, isDatabaseUnavailable, pingDatabase, type Db } from '@svc/db';
import { createLogger, dependencyCheck, Metrics, type Logger, type ReadinessCheck } from '@svc/http';
import { createStore, StoreUnavailableError, type Store } from '@svc/kv';

/** What every service holds: one logger, one Prisma client, one store (Redis or in-process), its metrics. */
export interface CoreDeps {
  logger: Logger;
  metrics: Metrics;
  db: Db;
  store: Store;
  /** Closes the store and the database; the HTTP server is drained before this runs. */
  close(): Promise<void>;
  /** PostgreSQL or Redis unreachable: answered 503, not 500. */
  isOutage(err: unknown): boolean;
}

export interface CoreConfig {
  DATABASE_URL: string;
  REDIS_URL?: string | undefined;
  REDIS_KEY_PREFIX?: string | undefined;
  LOG_LEVEL: string;
}

export function createCoreDeps(service: string, namespace: string, config: CoreConfig, clock?: () => number): CoreDeps {
  const logger = createLogger({ name: service, level: config.LOG_LEVEL });
  const db = createPrismaClient(config.DATABASE_URL);
  const store = createStore({
    redisUrl: config.REDIS_URL,
    namespace: config.REDIS_KEY_PREFIX ?? namespace,
    ...(clock ? { clock } : {}),
    onError: (err) => logger.warn({ err: err.message }, 'redis connection error'),
  });
  if (store.kind === 'memory') {
    logger.warn('REDIS_URL is not set: rate limits and caches are in-process and not shared with other replicas');
  }
  return {
    logger,
    metrics: new Metrics(service),
    db,
    store,
    close: async () => {
      await store.close();
      await db.$disconnect();
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
