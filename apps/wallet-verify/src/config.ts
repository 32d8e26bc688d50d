import { baseServiceEnv, env, parseEnv } from '@svc/http';
import { API_KEY_MAX_LIMITS, ORGANIZATION_LIMITS } from '@svc/schemas';
import { z } from 'zod';

const ZConfig = z.object({
  ...baseServiceEnv(4001),
  /** Where callers reach this service: the server of its OpenAPI document and curl samples; defaults to http://localhost:PORT. */
  PUBLIC_URL: env.optionalUrl(['http:', 'https:']),
  /** When Redis cannot be reached: refuse with 503 (closed) or limit per replica (open). */
  RATE_LIMIT_ON_REDIS_FAILURE: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['closed', 'open']).default('closed')),
  /** Replicas sharing the limits; failing open, each holds limit ÷ replicas. */
  RATE_LIMIT_REPLICAS: env.int(1, 1),
  /**
   * The platform maximum of one API key's limits: a key whose own limits are higher (tenants choose
   * them) is held to these. The operator's to raise; the identity provider refuses keys above them.
   */
  API_KEY_MAX_HOURLY_LIMIT: env.int(API_KEY_MAX_LIMITS.hourly, 1),
  API_KEY_MAX_BURST_LIMIT: env.int(API_KEY_MAX_LIMITS.burst, 1),
  /**
   * What all of one organization's API keys together may use of this service, per clock hour and
   * per second: keys are self-service, so without it an organization would get as much as it made
   * keys for. Over it, 429 as for a key's own limits. The operator's to set.
   */
  ORGANIZATION_HOURLY_LIMIT: env.int(ORGANIZATION_LIMITS.hourly, 1),
  ORGANIZATION_BURST_LIMIT: env.int(ORGANIZATION_LIMITS.burst, 1),
  /** A palm status change or a wallet's removal shows within this many seconds. */
  WALLET_CACHE_TTL_SECONDS: env.int(10),
  /** A disabled key or a changed limit takes effect within this many seconds. */
  API_KEY_CACHE_TTL_SECONDS: env.int(5),
  API_KEY_LAST_USED_FLUSH_SECONDS: env.int(30, 1),
  /**
   * Keys the per-organization user ids this service answers (the identity provider maps them back
   * for user-token): the same value as the identity provider's, and nothing else of its secrets.
   */
  PAIRWISE_SECRET: env.strongSecret(32),
});

export type Config = z.output<typeof ZConfig> & { publicUrl: string };

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(ZConfig, environment);
  return { ...config, publicUrl: (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '') };
}
