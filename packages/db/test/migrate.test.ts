import { randomBytes } from 'node:crypto';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { checksumOf, migrate, MigrationError, readMigrations } from '../src/index.js';

const server = process.env.SVC_TEST_SERVER_URL!;
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `mig_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(join(dir, name));
    await writeFile(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

afterAll(async () => {
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('migrate', () => {
  let url: string;
  beforeAll(async () => {
    url = await freshDatabase();
  });

  it('applies every migration to a fresh database and records it as prisma migrate deploy does', async () => {
    const result = await migrate(url);
    const expected = await readMigrations();
    expect(result.applied).toEqual(expected.map((m) => m.name));
    const rows = await query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; id: string }>(
      url,
      'SELECT id, migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => r.migration_name)).toEqual(expected.map((m) => m.name));
    for (const [i, row] of rows.entries()) {
      expect(row.checksum).toBe(expected[i]!.checksum);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.applied_steps_count).toBe(1);
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
    }
    const tables = await query<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['User', 'Application', 'Authorization', 'ApiKey', 'IssuedCredential', 'SigningKey']),
    );
  });

  it('is idempotent: a second run applies nothing and adds no rows', async () => {
    const again = await migrate(url);
    expect(again.applied).toEqual([]);
    expect(again.alreadyApplied.length).toBeGreaterThan(0);
    const [count] = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
    expect(Number(count!.n)).toBe(again.alreadyApplied.length);
  });

  it('records the SHA-256 of the file bytes, as Prisma does', () => {
    expect(checksumOf('a')).toBe('ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb');
  });

  it('refuses to run when an applied migration was edited afterwards', async () => {
    const db = await freshDatabase();
    const dir = await migrationsDir({ '001_a': 'CREATE TABLE a (id int);' });
    await migrate(db, dir);
    const edited = await migrationsDir({ '001_a': 'CREATE TABLE a (id bigint);' });
    await expect(migrate(db, edited)).rejects.toThrow(/001_a was modified after it was applied/);
  });

  it('records a failing migration with its log, rolls its changes back and stops later runs', async () => {
    const db = await freshDatabase();
    const dir = await migrationsDir({
      '001_ok': 'CREATE TABLE ok (id int);',
      '002_bad': 'CREATE TABLE half (id int); SELECT * FROM missing_table;',
      '003_after': 'CREATE TABLE after (id int);',
    });
    await expect(migrate(db, dir)).rejects.toBeInstanceOf(MigrationError);
    const rows = await query<{ migration_name: string; finished_at: Date | null; logs: string | null }>(
      db,
      'SELECT migration_name, finished_at, logs FROM "_prisma_migrations" ORDER BY migration_name',
    );
    expect(rows.map((r) => [r.migration_name, r.finished_at !== null])).toEqual([
      ['001_ok', true],
      ['002_bad', false],
    ]);
    expect(rows[1]!.logs).toMatch(/missing_table/);
    const tables = await query<{ table_name: string }>(db, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'");
    expect(tables.map((t) => t.table_name)).not.toContain('half');
    expect(tables.map((t) => t.table_name)).not.toContain('after');
    await expect(migrate(db, dir)).rejects.toThrow(/002_bad failed earlier/);
  });
});
