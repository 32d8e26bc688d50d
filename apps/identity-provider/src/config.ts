import { baseServiceEnv, env, keyEncryptionEnv, parseEnv } from '@svc/http';
import { z } from 'zod';

const ZConfig = z.object({
  ...baseServiceEnv(4000),
  /** Encrypts the RS256 private keys at rest (envelope encryption; see docs/identity-provider.md). */
  ...keyEncryptionEnv(),
  /** The issuer identifier and base of every advertised endpoint; defaults to http://localhost:PORT. */
  PUBLIC_URL: env.optionalUrl(['http:', 'https:']),
  /** Area A requests allowed per client per RATE_LIMIT_UNIT, advertised in svc-configuration. */
  RATE_LIMIT_DEFAULT: env.int(600, 1),
  /** Keys the CSRF tokens, the pairwise app_scoped_user_id and DPoP nonces; the same on every replica. */
  IDP_SECRET: env.strongSecret(32),
  /** Failed client authentications or grants per client and source address per 5 minutes, then 429. */
  AUTH_FAILURE_LIMIT: env.int(30, 1),
  /** /oauth/authorize requests per client and source address per minute, then 429. */
  AUTHORIZE_RATE_LIMIT: env.int(30, 1),
  RATE_LIMIT_UNIT: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['second', 'minute', 'hour']).default('minute')),
});

export type Config = z.output<typeof ZConfig> & { issuer: string; resource: string };

/** Every variable this service reads, for checks of deployment manifests. */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(ZConfig.shape);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const config = parseEnv(ZConfig, environment);
  // The issuer identifier has no trailing slash (RFC 8414 §2).
  const issuer = (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');
  // The access tokens' audience: this service's data API (RFC 9068 §3, RFC 8707 resource).
  return { ...config, issuer, resource: `${issuer}/v2` };
}
