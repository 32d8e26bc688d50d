import { ApiKeyAuthenticator, KeyLimiter, LimitEvents } from '@svc/api-keys';
import { pingDatabase } from '@svc/db';
import { type Counter, dependencyCheck, readPackageVersion, type ReadinessCheck } from '@svc/http';
import { type Clock, createCoreDeps, type CoreDeps } from '@svc/runtime';
import type { Config } from './config.js';
import { PairwiseIds } from './services/pairwise-ids.js';
import { WalletLookup } from './services/wallet-lookup.js';

export interface AppDeps extends CoreDeps {
  config: Config;
  version: string;
  authenticator: ApiKeyAuthenticator;
  limiter: KeyLimiter;
  wallets: WalletLookup;
  /** The user id each organization knows a wallet's owner by. */
  pairwiseIds: PairwiseIds;
  checks: ReadinessCheck[];
  /** Answers by outcome: human, not_human, not_found. */
  verifications: Counter<'result'>;
}

export interface BuildOptions {
  /** Tests only: a clock to move, so rate-limit windows can be crossed without sleeping. */
  clock?: Clock;
}

export function buildDeps(config: Config, options: BuildOptions = {}): AppDeps {
  // Every read here decides an answer (is this wallet a verified human, is this key live), and a
  // replica's lag would make it a wrong one: no replica pool, even where the deployment names one
  // for the other services.
  const core = createCoreDeps('wallet-verify', 'wv', { ...config, DATABASE_READ_URL: undefined }, options.clock);
  if (config.DATABASE_READ_URL) core.logger.info('DATABASE_READ_URL is not used: every read of wallet verify goes to the primary');
  const authenticator = new ApiKeyAuthenticator({
    db: core.db,
    cacheTtlSeconds: config.API_KEY_CACHE_TTL_SECONDS,
    lastUsedFlushSeconds: config.API_KEY_LAST_USED_FLUSH_SECONDS,
    onFlushError: (err) => core.logger.warn({ err }, 'could not record API key use'),
    clock: core.clock,
  });
  const limiter = new KeyLimiter({
    limiter: core.store.limiter,
    onRedisFailure: config.RATE_LIMIT_ON_REDIS_FAILURE,
    replicas: config.RATE_LIMIT_REPLICAS,
    logger: core.logger,
    clock: core.clock,
    events: new LimitEvents(core.db, core.logger),
    maxLimits: { hourly: config.API_KEY_MAX_HOURLY_LIMIT, burst: config.API_KEY_MAX_BURST_LIMIT },
    organizationLimits: { hourly: config.ORGANIZATION_HOURLY_LIMIT, burst: config.ORGANIZATION_BURST_LIMIT },
  });
  const failOpen = config.RATE_LIMIT_ON_REDIS_FAILURE === 'open';
  const redisCheck: ReadinessCheck = {
    name: 'redis',
    run: async () => {
      const details = { mode: core.store.kind === 'redis' ? 'redis' : 'in-process', on_redis_failure: config.RATE_LIMIT_ON_REDIS_FAILURE };
      try {
        await core.store.ping();
        return { ok: true, details };
      } catch (err) {
        // Failing open, the service still limits (per replica) and stays in rotation, degraded.
        return { ok: failOpen, details: { ...details, degraded: true, error: (err as Error).message } };
      }
    },
  };
  return {
    ...core,
    config,
    version: readPackageVersion(new URL('../package.json', import.meta.url)),
    authenticator,
    limiter,
    wallets: new WalletLookup(core.db, config.WALLET_CACHE_TTL_SECONDS),
    pairwiseIds: new PairwiseIds(config.PAIRWISE_SECRET),
    checks: [dependencyCheck('database', () => pingDatabase(core.db)), redisCheck],
    verifications: core.metrics.counter('wallet_verifications_total', 'Wallet verification answers, by outcome', ['result']),
    close: async () => {
      await authenticator.close();
      await limiter.close();
      await core.close();
    },
  };
}
