import { baseServiceEnv, env, parseEnv } from '@svc/http';
import { z } from 'zod';

const ZConfig = z.object({
  ...baseServiceEnv(4001),
  /** When Redis cannot be reached: refuse with 503 (closed) or limit per replica (open). */
  RATE_LIMIT_ON_REDIS_FAILURE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['closed', 'open']).default('closed')),
  /** Replicas sharing the limits; failing open, each holds limit ÷ replicas. */
  RATE_LIMIT_REPLICAS: env.int(1, 1),
  /** A palm status change or a wallet's removal shows within this many seconds. */
  WALLET_CACHE_TTL_SECONDS: env.int(10),
  /** A disabled key or a changed limit takes effect within this many seconds. */
  API_KEY_CACHE_TTL_SECONDS: env.int(5),
  API_KEY_LAST_USED_FLUSH_SECONDS: env.int(30, 1),
});

export type Config = z.output<typeof ZConfig>;

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  return parseEnv(ZConfig, environment);
}
