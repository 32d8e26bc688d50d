import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** Where this package keeps its migrations, in Prisma's layout. */
export const MIGRATIONS_DIR = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

// The same advisory lock key `prisma migrate deploy` takes, so the two never run at once.
const PRISMA_ADVISORY_LOCK = 72707369;

const CREATE_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export interface MigrateResult {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Prisma records the SHA-256 of the file's bytes, hex encoded. */
export function checksumOf(sql: string): string {
  return createHash('sha256').update(sql, 'utf8').digest('hex');
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: checksumOf(sql) };
    }),
  );
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/**
 * Applies pending migrations the way `prisma migrate deploy` does and records them in
 * `_prisma_migrations`, so the Prisma CLI sees the same history. Each migration runs in its own
 * transaction; a failed one is recorded with its log and stops the run, as Prisma's P3009 does.
 */
export async function migrate(databaseUrl: string, dir = MIGRATIONS_DIR): Promise<MigrateResult> {
  const migrations = await readMigrations(dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_ADVISORY_LOCK]);
    await client.query(CREATE_TABLE);
    const { rows } = await client.query<AppliedRow>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations"');
    const live = rows.filter((r) => r.rolled_back_at === null);
    const failed = live.find((r) => r.finished_at === null);
    if (failed) {
      throw new MigrationError(`migration ${failed.migration_name} failed earlier; resolve it (prisma migrate resolve) before migrating again`);
    }
    const done = new Map(live.map((r) => [r.migration_name, r.checksum]));
    const result: MigrateResult = { applied: [], alreadyApplied: [] };
    for (const m of migrations) {
      const recorded = done.get(m.name);
      if (recorded !== undefined) {
        if (recorded !== m.checksum) {
          throw new MigrationError(`migration ${m.name} was modified after it was applied`);
        }
        result.alreadyApplied.push(m.name);
        continue;
      }
      await applyOne(client, m);
      result.applied.push(m.name);
    }
    return result;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_ADVISORY_LOCK]).catch(() => undefined);
    await client.end();
  }
}

async function applyOne(client: pg.Client, m: Migration): Promise<void> {
  const id = randomUUID();
  await client.query('INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)', [
    id,
    m.checksum,
    m.name,
  ]);
  try {
    await client.query('BEGIN');
    await client.query(m.sql);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    const message = err instanceof Error ? err.message : String(err);
    await client.query('UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1', [id, message]);
    throw new MigrationError(`migration ${m.name} failed: ${message}`);
  }
  await client.query('UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [id]);
}
