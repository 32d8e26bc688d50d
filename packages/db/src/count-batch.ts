import type { PrismaClient } from './generated/prisma/client.js';

const HOUR_MS = 3_600_000;

/**
 * Requests per API key and hour, counted in memory and added to "ApiKeyUsage" every
 * `flushSeconds` in one statement for all keys, never per request (like TimestampBatch). Counts
 * from several replicas add up: rows are written in one order (no deadlock between two flushes),
 * and a key deleted meanwhile is skipped rather than failing the rest. A flush that fails is
 * logged and its counts are lost, not retried (this is what the console shows, not what limits
 * are enforced with).
 */
export class CountBatch {
  private readonly pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly db: PrismaClient,
    flushSeconds: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {
    this.timer = setInterval(() => void this.flush(), flushSeconds * 1000);
    this.timer.unref();
  }

  /** One request with key `id` at `at`, counted in the hour it falls in. */
  record(id: string, at: Date): void {
    const key = `${id} ${Math.floor(at.getTime() / HOUR_MS) * HOUR_MS}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + 1);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const entries = [...this.pending];
    this.pending.clear();
    const ids = entries.map(([key]) => key.split(' ')[0]!);
    const hours = entries.map(([key]) => new Date(Number(key.split(' ')[1])));
    const counts = entries.map(([, count]) => count);
    try {
      await this.db.$executeRaw`
        INSERT INTO "ApiKeyUsage" ("apiKeyId", "hour", "count")
        SELECT v.id, v.hour, v.count FROM unnest(${ids}::uuid[], ${hours}::timestamptz[], ${counts}::int[]) AS v(id, hour, count)
        WHERE EXISTS (SELECT 1 FROM "ApiKey" k WHERE k.id = v.id)
        ORDER BY v.id, v.hour
        ON CONFLICT ("apiKeyId", "hour") DO UPDATE SET "count" = "ApiKeyUsage"."count" + EXCLUDED."count"`;
    } catch (err) {
      this.onError(err);
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
