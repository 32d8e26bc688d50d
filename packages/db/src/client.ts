import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from './generated/prisma/client.js';
import { Sql } from './sql.js';

export type Db = PrismaClient;

export interface PrismaOptions {
  /** Connections this process may hold; replicas multiply it, so keep it modest. */
  poolSize?: number;
}

export interface Database {
  db: PrismaClient;
  /** The same connections, straight through the driver, for the hottest queries. */
  sql: Sql;
  /** Ends the Prisma client and its pool. */
  close: () => Promise<void>;
}

/** The only way the services reach PostgreSQL: one pg pool, under Prisma's driver adapter and `Sql`. */
export function createDatabase(databaseUrl: string, options: PrismaOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3_000,
    // A statement that runs this long is a bug or an outage; fail the request, not the pool.
    statement_timeout: 10_000,
  });
  // An idle connection dropped by a PostgreSQL restart must not end the process: the next query
  // fails instead (a 503), and the pool opens a new connection after it.
  pool.on('error', () => undefined);
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) });
  return {
    db,
    sql: new Sql(pool),
    close: async () => {
      await db.$disconnect();
      if (!pool.ended) await pool.end();
    },
  };
}

/** A Prisma client alone (the admin CLI); `$disconnect()` ends its pool. */
export function createPrismaClient(databaseUrl: string, options: PrismaOptions = {}): PrismaClient {
  return createDatabase(databaseUrl, options).db;
}

/** Readiness probe: one round trip, bounded in time. */
export async function pingDatabase(db: PrismaClient, timeoutMs = 2_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      db.$queryRaw`SELECT 1`,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// Driver-adapter failure kinds that mean "PostgreSQL cannot be reached right now", not "this query is wrong".
const UNREACHABLE = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
  'DatabaseAccessDenied',
  'DatabaseDoesNotExist',
]);
const UNREACHABLE_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03']);

type AdapterCause = { kind?: unknown; originalCode?: unknown };

/**
 * The driver adapter's account of a failure (its kind, PostgreSQL's code): Prisma's error names it
 * in `meta`; inside an interactive transaction the adapter's own error arrives as it is, with it in `cause`.
 */
function adapterCause(err: unknown): AdapterCause | undefined {
  const e = err as { name?: unknown; cause?: unknown; meta?: { driverAdapterError?: { cause?: AdapterCause } } };
  return e?.meta?.driverAdapterError?.cause ?? (e?.name === 'DriverAdapterError' && typeof e.cause === 'object' ? (e.cause as AdapterCause) : undefined);
}

/** Whether `err` says the database is down or unreachable (a 503), rather than a bug (a 500). */
export function isDatabaseUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown };
  const cause = adapterCause(err);
  if (typeof cause?.kind === 'string' && UNREACHABLE.has(cause.kind)) return true;
  if (typeof cause?.originalCode === 'string' && UNREACHABLE_CODES.has(cause.originalCode)) return true;
  if (typeof e?.code === 'string' && UNREACHABLE_CODES.has(e.code)) return true;
  // node-postgres's own words for a connection that died under a query or a transaction (its
  // client then refuses every further query with "… is not queryable").
  return typeof e?.message === 'string' && /timeout exceeded when trying to connect|Connection terminated|is not queryable/.test(e.message);
}

/**
 * A hot standby cancelled the statement for a conflict with recovery (SQLSTATE 40001, or 40P01 for
 * a buffer-pin deadlock): the replica needed to replay something the read was holding back, past
 * its max_standby_streaming_delay. A replica's reads are read-only, so no serialization failure of
 * their own can carry these codes. Nothing is wrong with the query: the primary can answer it.
 */
export function isRecoveryConflict(err: unknown): boolean {
  const code = adapterCause(err)?.originalCode ?? (err as { code?: unknown })?.code;
  return code === '40001' || code === '40P01';
}

/**
 * The row a write named is gone, deleted by another request meanwhile: Prisma's P2025 (an update or
 * delete found no row), or a foreign key whose parent row is gone (P2003, or PostgreSQL's 23503 from
 * the driver or through the adapter).
 */
export function isRowGone(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'P2025' || code === 'P2003' || code === '23503' || adapterCause(err)?.originalCode === '23503';
}

/**
 * `write` on a row found a moment before; if another request deleted it meanwhile, `gone()` is
 * thrown instead: the answer a moment later would get (not found), not a failure of the service.
 */
export async function unlessGone<T>(write: Promise<T>, gone: () => Error): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isRowGone(err)) throw gone();
    throw err;
  }
}

/** A unique constraint refused the write: Prisma's P2002, or PostgreSQL's 23505 from the driver or through the adapter. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === 'P2002' || code === '23505' || adapterCause(err)?.originalCode === '23505';
}
