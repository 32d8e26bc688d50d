import { Prisma, type PrismaClient } from './generated/prisma/client.js';

/** The "last something at" columns written in batches; identifiers come only from this list. */
const COLUMNS = {
  'ApiKey.lastUsedAt': Prisma.raw('"ApiKey" AS t SET "lastUsedAt" = v.at'),
  'Authorization.lastTokenIssuedAt': Prisma.raw('"Authorization" AS t SET "lastTokenIssuedAt" = v.at'),
} as const;
const GUARDS = {
  'ApiKey.lastUsedAt': Prisma.raw('(t."lastUsedAt" IS NULL OR t."lastUsedAt" < v.at)'),
  'Authorization.lastTokenIssuedAt': Prisma.raw('(t."lastTokenIssuedAt" IS NULL OR t."lastTokenIssuedAt" < v.at)'),
} as const;

export type BatchedColumn = keyof typeof COLUMNS;

/**
 * A "last used" timestamp kept in memory and written every `flushSeconds` in one statement for
 * all rows, never per request; a value never moves backwards. Bookkeeping on a hot path should
 * not cost a database commit per request.
 */
export class TimestampBatch {
  private readonly pending = new Map<string, Date>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: PrismaClient,
    private readonly column: BatchedColumn,
    flushSeconds: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.flush(), flushSeconds * 1000);
    this.timer.unref();
  }

  record(id: string, at: Date): void {
    this.pending.set(id, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const ids = [...this.pending.keys()];
    const times = ids.map((id) => this.pending.get(id)!);
    this.pending.clear();
    try {
      await this.db.$executeRaw`
        UPDATE ${COLUMNS[this.column]}
        FROM unnest(${ids}::uuid[], ${times}::timestamptz[]) AS v(id, at)
        WHERE t.id = v.id AND ${GUARDS[this.column]}`;
    } catch (err) {
      this.onError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
