import { randomBytes } from 'node:crypto';
import { createPrismaClient, ensureDatabaseExists, migrate, sandboxDatabaseUrl, type Db } from '@svc/db';
import { testReplicaCaughtUp } from './replica-run.js';

/** The database jest's global setup created and migrated for this run. */
/** A service's key-encryption key in this run (each its own, set by the jest-preset-db global set-up). */
export function testSigningKeyKek(service: 'identity-provider' | 'credential-issuer'): string {
  const name = service === 'identity-provider' ? 'IDP_SIGNING_KEY_KEK' : 'ISSUER_SIGNING_KEY_KEK';
  const kek = process.env[name];
  if (!kek) throw new Error(`${name} is not set: use the @svc/testkit/jest-preset-db preset`);
  return kek;
}

/** The secret of the per-organization user ids in this run (set by the jest-preset-db global set-up). */
export function testPairwiseSecret(): string {
  const secret = process.env.PAIRWISE_SECRET;
  if (!secret) throw new Error('PAIRWISE_SECRET is not set: use the @svc/testkit/jest-preset-db preset');
  return secret;
}

export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: use the @svc/testkit/jest-preset-db preset');
  return url;
}

/**
 * The run's sandbox database (the run's name with `_sandbox`, as a deployment names it), created
 * and migrated on first use; dropped with the run's own.
 */
export async function testSandboxDatabaseUrl(): Promise<string> {
  const url = sandboxDatabaseUrl(testDatabaseUrl());
  await ensureDatabaseExists(url);
  await migrate(url);
  await testReplicaCaughtUp();
  return url;
}

/**
 * A migrated database of this run for one suite alone, beside the run's shared one (and dropped
 * with it): for rows no other suite's service process may act on, such as webhook deliveries
 * (every identity provider a suite starts delivers what the database it is given holds).
 */
export async function testSuiteDatabaseUrl(suite: string): Promise<string> {
  if (!/^[a-z0-9_]{1,30}$/.test(suite)) throw new Error('suite: lowercase letters, digits and _ only');
  const url = new URL(testDatabaseUrl());
  url.pathname = `/${encodeURIComponent(`${decodeURIComponent(url.pathname.slice(1))}_${suite}`)}`;
  await ensureDatabaseExists(url.toString());
  await migrate(url.toString());
  await testReplicaCaughtUp();
  return url.toString();
}

export function testDb(): Db {
  return createPrismaClient(testDatabaseUrl(), { poolSize: 4 });
}

/** REDIS_URL when the run has a real Redis (CI), otherwise undefined: the in-process store. */
export function testRedisUrl(): string | undefined {
  return process.env.REDIS_URL || undefined;
}

/** A key namespace no other suite or run shares. */
export function uniqueNamespace(prefix = 'test'): string {
  return `${prefix}:${randomBytes(6).toString('hex')}`;
}

export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}@test.example`;
}

/** A random EIP-55-shaped address is not checksummed; tests that need valid ones checksum it. */
export function randomHex40(): string {
  return randomBytes(20).toString('hex');
}

export { contractChecked, documentValidator } from './contract.js';
export {
  cleanEnv,
  freePort,
  isListening,
  repoRoot,
  run,
  SERVICES,
  startServer,
  startService,
  waitFor,
  type Running,
  type Service,
  type StartedService,
} from './processes.js';
export { authorizeThroughApi, type FlowClient } from './oauth-flow.js';
export { type RedisClusterNode, startRedisCluster, type StartedRedisCluster } from './redis-cluster.js';
export { signUpThroughOutbox, type SignedUp } from './developer-sign-up.js';
export { testDatabaseReadUrl, testReplicaCaughtUp, withTestReplica } from './replica-run.js';
export { canStartPostgresReplica, postgresBinaries, startPostgresReplica, type StartedPostgresReplica, windowPassed } from './pg-replica.js';
