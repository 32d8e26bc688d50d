// docker-compose.yml as the compose tests read it, and the steps' scripts as compose runs them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPrismaClient, migrate } from '@svc/db';
import { repoRoot, SERVICES, testDatabaseUrl } from '@svc/testkit';
import { parse } from 'yaml';
import { read } from './manifests.js';

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  user?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

export const text = read('docker-compose.yml');
export const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
export const dotenv = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

/** Compose's own interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, from `given` (a new user: nothing). */
export function interpolate(value: string, given: Record<string, string> = {}): string {
  return value.replace(/\$\{([A-Z_]{1,64})(?::([-?])([^}]{0,200}))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    const set = given[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

export const sourceOf = (script: string) => script.replace(/\/dist\//, '/src/').replace(/\.js$/, '.ts');

// What infra/compose/dev-secrets.mjs generates unless given, and the volume each container reads them from.
export const SECRETS = [
  'POSTGRES_PASSWORD',
  'IDENTITY_PROVIDER_DB_PASSWORD',
  'WALLET_VERIFY_DB_PASSWORD',
  'CREDENTIAL_ISSUER_DB_PASSWORD',
  'IDP_SECRET',
  'IDP_SIGNING_KEY_KEK',
  'ISSUER_SIGNING_KEY_KEK',
  'PAIRWISE_SECRET',
  'SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD',
  'SANDBOX_WALLET_VERIFY_DB_PASSWORD',
  'SANDBOX_CREDENTIAL_ISSUER_DB_PASSWORD',
  'SANDBOX_IDP_SECRET',
  'SANDBOX_IDP_SIGNING_KEY_KEK',
  'SANDBOX_PAIRWISE_SECRET',
  'AUTHORIZATION_SERVER_CLIENT_SECRET',
  'AUTHORIZATION_SERVER_WEBHOOK_SECRET',
];
export const SECRET_HOLDERS = ['postgres', 'migrate', 'demo', ...SERVICES, 'migrate-sandbox', 'identity-provider-sandbox', 'link'];
export const OWN_SECRETS: Record<string, string[]> = {
  postgres: ['POSTGRES_PASSWORD'],
  migrate: ['CREDENTIAL_ISSUER_DB_PASSWORD', 'DATABASE_URL', 'IDENTITY_PROVIDER_DB_PASSWORD', 'WALLET_VERIFY_DB_PASSWORD'],
  demo: ['DATABASE_URL', 'IDP_SIGNING_KEY_KEK', 'ISSUER_SIGNING_KEY_KEK'],
  'identity-provider': ['DATABASE_URL', 'IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'],
  'wallet-verify': ['DATABASE_URL', 'PAIRWISE_SECRET'],
  'credential-issuer': ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET', 'DATABASE_URL', 'ISSUER_SIGNING_KEY_KEK'],
  'migrate-sandbox': ['CREDENTIAL_ISSUER_DB_PASSWORD', 'DATABASE_URL', 'IDENTITY_PROVIDER_DB_PASSWORD', 'WALLET_VERIFY_DB_PASSWORD'],
  'identity-provider-sandbox': ['DATABASE_URL', 'IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'],
  link: ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET', 'DATABASE_URL', 'IDP_SIGNING_KEY_KEK'],
};

/** Runs dev-secrets.mjs as the compose step does, on fresh "volumes" under `root` (or those a run before left). */
export function devSecrets(root: string, env: Record<string, string> = {}) {
  for (const dir of ['store', ...SECRET_HOLDERS]) mkdirSync(join(root, dir), { recursive: true });
  const result = spawnSync(process.execPath, [`${repoRoot}infra/compose/dev-secrets.mjs`, root], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
export const files = (dir: string) => readdirSync(dir).sort();
export const secret = (root: string, holder: string, name: string) => readFileSync(join(root, holder, name), 'utf8');

/** A database of the test's own (the run's is shared with the other files), migrated; its name goes in `drop`, for afterAll. */
export async function ownDatabase(suffix: string, drop: string[]): Promise<string> {
  const own = new URL(testDatabaseUrl());
  own.pathname = `${own.pathname}_${suffix}`;
  const server = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
  try {
    await server.$executeRawUnsafe(`CREATE DATABASE "${own.pathname.slice(1)}"`);
  } finally {
    await server.$disconnect();
  }
  await migrate(own.toString());
  drop.push(own.pathname.slice(1));
  return own.toString();
}

/** Drops the databases `drop` names. */
export async function dropDatabases(drop: string[]): Promise<void> {
  if (!drop.length) return;
  const server = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
  try {
    for (const name of drop) await server.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await server.$disconnect();
  }
}
