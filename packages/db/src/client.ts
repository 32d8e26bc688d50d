import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client.js';

export type Db = PrismaClient;

export interface PrismaOptions {
  /** Connections this process may hold; replicas multiply it, so keep it modest. */
  poolSize?: number;
}

/** The only way the services build a Prisma client: the pg driver adapter, no engine binary. */
export function createPrismaClient(databaseUrl: string, options: PrismaOptions = {}): PrismaClient {
  const adapter = new PrismaPg({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 3_000,
    // A statement that runs this long is a bug or an outage; fail the request, not the pool.
    statement_timeout: 10_000,
  });
  return new PrismaClient({ adapter });
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
