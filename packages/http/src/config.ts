import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { TOKEN68 } from './authorization.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

// Variables whose values are never echoed back in an error, even in part.
const SECRET_NAME = /SECRET|KEY|TOKEN|PASSWORD|KEK/;

/**
 * The Docker secrets convention (the postgres image's POSTGRES_PASSWORD_FILE): for each of `names`
 * left unset or empty, `<NAME>_FILE` names a file whose content, trimmed, is the value. A value set
 * directly wins; a `_FILE` that cannot be read is a ConfigError naming it (never its content).
 * Returns a copy of `env` with those values filled in, and which names came from a file.
 */
export function resolveFileEnv(names: Iterable<string>, env: NodeJS.ProcessEnv): { env: NodeJS.ProcessEnv; fromFile: Set<string> } {
  const resolved = { ...env };
  const fromFile = new Set<string>();
  const unreadable: string[] = [];
  for (const name of names) {
    const file = env[`${name}_FILE`];
    if ((env[name] !== undefined && env[name] !== '') || !file) continue;
    try {
      resolved[name] = readFileSync(file, 'utf8').trim();
      fromFile.add(name);
    } catch (err) {
      unreadable.push(`Invalid configuration: ${name}_FILE: cannot read ${JSON.stringify(file)} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  if (unreadable.length) throw new ConfigError(unreadable.join('\n'));
  return { env: resolved, fromFile };
}

/**
 * Parses environment variables with a zod object whose keys are the variable names. Every problem
 * becomes one line that names its variable, so an operator fixes them all in one go. Each variable
 * may come from a file instead (`<NAME>_FILE`, resolveFileEnv): how Docker and Kubernetes hand
 * over secrets without putting them in the process environment.
 */
export function parseEnv<S extends z.ZodObject>(schema: S, given: NodeJS.ProcessEnv): z.output<S> {
  const { env, fromFile } = resolveFileEnv(Object.keys(schema.shape), given);
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const name = String(issue.path[0] ?? 'environment');
    const value = env[name];
    // A file is where secrets are kept: its content is never echoed either.
    const hidden = SECRET_NAME.test(name) || fromFile.has(name);
    const shown =
      value === undefined
        ? 'it is not set'
        : hidden
          ? `${value.length} characters given`
          : `got ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
    return `Invalid configuration: ${name}: ${issue.message} (${shown}${fromFile.has(name) ? `, read from ${name}_FILE` : ''})`;
  });
  throw new ConfigError(lines.join('\n'));
}

// Values copied from examples and documentation, refused wherever a real secret is needed.
const PLACEHOLDER = /change[-_ ]?me|changeit|placeholder|example|your[-_ ]?secret|replace[-_ ]?me|^(secret|password)+$|^x+$/i;

/** Bits of Shannon entropy in `value` as written (an upper bound on its real unpredictability). */
function entropyBits(value: string): number {
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let perChar = 0;
  for (const n of counts.values()) perChar -= (n / value.length) * Math.log2(n / value.length);
  return perChar * value.length;
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
    z.string().refine(
      (v) => {
        try {
          return protocols.includes(new URL(v).protocol);
        } catch {
          return false;
        }
      },
      `must be a ${protocols.join(' or ')} URL`,
    ),
  optionalUrl: (protocols: string[]) => z.preprocess(blankAsUndefined, env.url(protocols).optional()),
  logLevel: () => z.preprocess(blankAsUndefined, z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info')),
  optionalString: () => z.preprocess(blankAsUndefined, z.string().optional()),
  int: (fallback: number, min = 0) => z.preprocess(blankAsUndefined, z.coerce.number().int().min(min).default(fallback)),
  bool: (fallback: boolean) =>
    z.preprocess(blankAsUndefined, z.enum(['true', 'false', '1', '0']).default(fallback ? 'true' : 'false')).transform((v) => v === 'true' || v === '1'),
  secret: (minLength: number) => z.string().min(minLength, `must be at least ${minLength} characters`),
  /** A long random secret: no known placeholder, and at least 128 bits of entropy as written. */
  strongSecret: (minLength: number) =>
    z
      .string()
      .min(minLength, `must be at least ${minLength} characters`)
      .refine((v) => !PLACEHOLDER.test(v), 'is a placeholder from an example; generate one, e.g. `openssl rand -base64 36`')
      .refine((v) => entropyBits(v) >= 128, 'is too predictable (repeated or few distinct characters); generate one, e.g. `openssl rand -base64 36`'),
};

/** The `version` of the package.json next to the given module's package. */
export function readPackageVersion(packageJsonUrl: URL): string {
  return (JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as { version: string }).version;
}

const commaList = () =>
  z.preprocess(blankAsUndefined, z.string().optional()).transform((v) =>
    v
      ? v
          .split(',')
          .map((k) => k.trim())
          .filter(Boolean)
      : [],
  );
const optionalKek = () => z.preprocess(blankAsUndefined, env.strongSecret(32).optional());

type KekShape<N extends string> = { [K in N]: ReturnType<typeof optionalKek> } & { [K in `${N}_PREVIOUS`]: ReturnType<typeof commaList> };

/**
 * The service's own key-encryption key of its stored signing keys (`name`, e.g.
 * IDP_SIGNING_KEY_KEK) and the ones it replaces (`<name>_PREVIOUS`); see @svc/signing-keys.
 * `keyEncryptionSettings` requires `name`.
 */
export function keyEncryptionEnv<N extends string>(name: N): KekShape<N> {
  return {
    [name]: optionalKek(),
    [`${name}_PREVIOUS`]: commaList(),
  } as KekShape<N>;
}

/** What a parsed `keyEncryptionEnv(name)` holds, for `new KeyEncryption(service, settings)`; a ConfigError when the KEK is not set. */
export function keyEncryptionSettings(config: Record<string, unknown>, name: string): { current: string; previous: string[] } {
  const current = config[name] as string | undefined;
  if (!current) {
    throw new ConfigError(
      `Invalid configuration: ${name}: is required: the key-encryption key of this service's signing keys, e.g. \`openssl rand -base64 36\` (it is not set)`,
    );
  }
  return { current, previous: (config[`${name}_PREVIOUS`] as string[] | undefined) ?? [] };
}

const CLUSTER_NODE = String.raw`(?:\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}`;
const CLUSTER_NODES = new RegExp(`^${CLUSTER_NODE}(?:,${CLUSTER_NODE})*$`);
const CLUSTER_URL = new RegExp(`^rediss?\\+cluster://(?:[^@/]*@)?${CLUSTER_NODE}(?:,${CLUSTER_NODE})*/?$`);

/** Variables every service reads; each app extends this with its own. */
export function baseServiceEnv(defaultPort: number) {
  return {
    PORT: env.port(defaultPort),
    HOST: z.preprocess(blankAsUndefined, z.string().default('0.0.0.0')),
    DATABASE_URL: env.url(['postgres:', 'postgresql:']),
    // A streaming replica for the reads that tolerate its lag (lists); unset: every read on DATABASE_URL.
    DATABASE_READ_URL: env.optionalUrl(['postgres:', 'postgresql:']),
    // How long an organization's reads stay on the primary after it writes: well above a healthy
    // replica's lag (milliseconds), so a caller sees its own write; see infra/README.md.
    DATABASE_READ_AFTER_WRITE_SECONDS: z.preprocess(blankAsUndefined, z.coerce.number().int().min(1).max(3600).default(5)),
    // One server (redis:, rediss:), or a Redis Cluster through any of its nodes (redis+cluster://h:p,h:p).
    REDIS_URL: z.preprocess(
      blankAsUndefined,
      z
        .string()
        .refine(
          (v) => CLUSTER_URL.test(v) || env.url(['redis:', 'rediss:']).safeParse(v).success,
          'must be a redis: or rediss: URL, or a Redis Cluster as redis+cluster://host:port[,host:port…]',
        )
        .optional(),
    ),
    // A Redis Cluster as its nodes, host:port,host:port (instead of a redis+cluster: REDIS_URL).
    REDIS_CLUSTER_NODES: z.preprocess(
      blankAsUndefined,
      z.string().regex(CLUSTER_NODES, 'must be host:port[,host:port…], the nodes of a Redis Cluster').optional(),
    ),
    // Prefix of every Redis key (default: the service's own), so environments can share a Redis.
    REDIS_KEY_PREFIX: z.preprocess(
      blankAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9:_-]{1,64}$/, 'must be 1 to 64 letters, digits, ":", "_" or "-"')
        .optional(),
    ),
    LOG_LEVEL: env.logLevel(),
    // Which completed requests are logged at info: failures only (4xx, 5xx; the rest at debug), or all.
    LOG_REQUESTS: z.preprocess(blankAsUndefined, z.enum(['failures', 'all']).default('failures')),
    // When set, GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>`.
    METRICS_TOKEN: z.preprocess(
      blankAsUndefined,
      env
        .secret(16)
        .regex(TOKEN68, 'must be a bearer token: letters, digits and - . _ ~ + / (then = at the end only), e.g. `openssl rand -base64 24`')
        .optional(),
    ),
    GIT_COMMIT: env.optionalString(),
    BODY_LIMIT: z.preprocess(
      blankAsUndefined,
      z
        .string()
        .regex(/^\d{1,7}(b|kb|mb)?$/, 'must be a size such as 100kb')
        .default('100kb'),
    ),
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
