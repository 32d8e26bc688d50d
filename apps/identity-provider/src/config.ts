import { baseServiceEnv, env, parseEnv } from '@svc/http';
import { z } from 'zod';

const ZConfig = z.object({
  ...baseServiceEnv(4000),
  /** The issuer identifier and base of every advertised endpoint; defaults to http://localhost:PORT. */
  PUBLIC_URL: env.optionalUrl(['http:', 'https:']),
  /** Area A requests allowed per client per RATE_LIMIT_UNIT, advertised in svc-configuration. */
  RATE_LIMIT_DEFAULT: env.int(600, 1),
  /** Keys the CSRF tokens and the pairwise app_scoped_user_id; the same on every replica. */
  IDP_SECRET: env.secret(32),
  RATE_LIMIT_UNIT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['second', 'minute', 'hour']).default('minute')),
});

export type Config = z.output<typeof ZConfig> & { issuer: string };

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(ZConfig, environment);
  // The issuer identifier has no trailing slash (RFC 8414 §2).
  const issuer = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  return { ...config, issuer };
}
