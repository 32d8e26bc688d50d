import { readFileSync } from 'node:fs';
import { z } from 'zod';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * Parses environment variables with a zod object whose keys are the variable names. The first
 * problem becomes one line that names the variable, so an operator knows what to fix.
 */
export function parseEnv<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv): z.output<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'environment');
  const value = env[name];
  const shown = value === undefined ? 'it is not set' : `got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  throw new ConfigError(`Invalid configuration: ${name}: ${issue.message} (${shown})`);
}

/** Runs a config loader in a server entry point: a ConfigError prints one line and exits 1. */
export function loadOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

// Empty strings count as unset, as operators often write `FOO=` to clear a variable.
const blankAsUndefined = (v: unknown) => (v === '' ? undefined : v);

export const env = {
  port: (fallback: number) => z.preprocess(blankAsUndefined, z.coerce.number().int().min(0).max(65535).default(fallback)),
  url: (protocols: string[]) =>
    z.string().refine((v) => {
      try {
        return protocols.includes(new URL(v).protocol);
      } catch {
        return false;
      }
    }, `must be a ${protocols.join(' or ')} URL`),
  optionalUrl: (protocols: string[]) => z.preprocess(blankAsUndefined, env.url(protocols).optional()),
  logLevel: () => z.preprocess(blankAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  optionalString: () => z.preprocess(blankAsUndefined, z.string().optional()),
  int: (fallback: number, min = 0) => z.preprocess(blankAsUndefined, z.coerce.number().int().min(min).default(fallback)),
  bool: (fallback: boolean) =>
    z.preprocess(blankAsUndefined, z.enum(['true', 'false', '1', '0']).default(fallback ? 'true' : 'false')).transform((v) => v === 'true' || v === '1'),
  secret: (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`),
};

/** The `version` of the package.json next to the given module's package. */
export function readPackageVersion(packageJsonUrl: URL): string {
  return (JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as { version: string }).version;
}

/** Variables every service reads; each app extends this with its own. */
export function baseServiceEnv(defaultPort: number) {
  return {
    PORT: env.port(defaultPort),
    HOST: z.preprocess(blankAsUndefined, z.string().default('0.0.0.0')),
    DATABASE_URL: env.url(['postgres:', 'postgresql:']),
    REDIS_URL: env.optionalUrl(['redis:', 'rediss:']),
    // Prefix of every Redis key (default: the service's own), so environments can share a Redis.
    REDIS_KEY_PREFIX: z.preprocess(blankAsUndefined, z.string().regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1 to 64 letters, digits, ":", "_" or "-"').optional()),
    LOG_LEVEL: env.logLevel(),
    // When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.
    METRICS_TOKEN: z.preprocess(blankAsUndefined, env.secret(16).optional()),
    GIT_COMMIT: env.optionalString(),
    BODY_LIMIT: z.preprocess(blankAsUndefined, z.string().regex(/^\d{1,7}(b|kb|mb)?$/, 'must be a size such as 100kb').default('100kb')),
    // Express's `trust proxy`: true/false, a hop count, or addresses/subnets ("loopback, 10.0.0.0/8").
    TRUST_PROXY: z.preprocess(
      blankAsUndefined,
      z
        .string()
        .regex(/^(true|false|\d{1,2}|[0-9A-Za-z.:/, _-]{1,500})$/, 'must be true, false, a hop count or a list of addresses')
        .transform((v): boolean | number | string => (v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v))
        .optional(),
    ),
  };
}
