import { randomBytes } from 'node:crypto';
import { createPrismaClient, type Db } from '@svc/db';

/** The database jest's global setup created and migrated for this run. */
/** The key-encryption key of this run's signing keys (set by the jest-preset-db global set-up). */
export function testSigningKeyKek(): string {
  const kek = process.env.SIGNING_KEY_KEK;
  if (!kek) throw new Error('SIGNING_KEY_KEK is not set: use the @svc/testkit/jest-preset-db preset');
  return kek;
}

export function testDatabaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL is not set: use the @svc/testkit/jest-preset-db preset');
  return url;
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

export { contractChecked } from './contract.js';
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
