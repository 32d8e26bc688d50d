import { afterAll, describe, expect, it } from '@jest/globals';
import { createDatabase, isRowGone, isUniqueViolation, statement } from '../src/index.js';

const database = createDatabase(process.env.DATABASE_URL!, { poolSize: 2 });
afterAll(() => database.close());

const echo = statement<{ at: Date; n: number; names: string[] }>('sql_test_echo', 'SELECT $1::timestamptz AS at, $2::int AS n, $3::text[] AS names');

describe('Sql: prepared statements on the pool under Prisma', () => {
  it('runs a named statement again and again on every pooled connection, with typed values back', async () => {
    const at = new Date('2026-11-24T01:02:03.456Z');
    const rows = await Promise.all(Array.from({ length: 6 }, (_, i) => database.sql.one(echo, [at.toISOString(), i, ['a', 'b']])));
    expect(rows.map((r) => r?.n)).toEqual([0, 1, 2, 3, 4, 5]);
    for (const r of rows) expect(r).toEqual({ at, n: expect.any(Number), names: ['a', 'b'] });
  });

  it('answers undefined for no row, and refuses a bad value with PostgreSQL’s error', async () => {
    const none = statement<{ x: number }>('sql_test_none', 'SELECT 1 AS x WHERE false');
    expect(await database.sql.one(none, [])).toBeUndefined();
    await expect(database.sql.one(echo, ['not a time', 1, []])).rejects.toThrow(/invalid input syntax/);
  });
});

const refusalOf = (write: Promise<unknown>) =>
  write.then(
    () => undefined,
    (err: unknown) => err,
  );

describe('isUniqueViolation', () => {
  it('recognises a duplicate however it reached PostgreSQL: the driver, Prisma, a Prisma transaction', async () => {
    await database.db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS sql_test_unique (k text PRIMARY KEY)');
    const key = `k-${Date.now()}-${Math.random()}`;
    const insert = statement<{ k: string }>('sql_test_unique_insert', 'INSERT INTO sql_test_unique (k) VALUES ($1) RETURNING k');
    await database.sql.one(insert, [key]);
    const refusals = await Promise.all([
      refusalOf(database.sql.one(insert, [key])),
      refusalOf(database.db.$executeRaw`INSERT INTO sql_test_unique (k) VALUES (${key})`),
      refusalOf(database.db.$transaction(async (tx) => tx.$executeRaw`INSERT INTO sql_test_unique (k) VALUES (${key})`)),
    ]);
    expect(refusals.map(isUniqueViolation)).toEqual([true, true, true]);
    expect(isUniqueViolation(await refusalOf(database.sql.one(echo, ['not a time', 1, []])))).toBe(false);
  });
});

describe('isRowGone', () => {
  it('recognises a write on a row another request deleted, however it reached PostgreSQL', async () => {
    await database.db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS sql_test_parent (id text PRIMARY KEY)');
    await database.db.$executeRawUnsafe('CREATE TABLE IF NOT EXISTS sql_test_child (parent text NOT NULL REFERENCES sql_test_parent (id))');
    const gone = `gone-${Date.now()}-${Math.random()}`;
    const child = statement('sql_test_child_insert', 'INSERT INTO sql_test_child (parent) VALUES ($1)');
    const refusals = await Promise.all([
      // A child of a parent that is not there: the driver, a Prisma raw query, inside a transaction.
      refusalOf(database.sql.one(child, [gone])),
      refusalOf(database.db.$queryRaw`INSERT INTO sql_test_child (parent) VALUES (${gone}) RETURNING parent`),
      refusalOf(database.db.$transaction(async (tx) => tx.$executeRaw`INSERT INTO sql_test_child (parent) VALUES (${gone})`)),
      // Prisma's update and delete of a row that is not there.
      refusalOf(database.db.user.update({ where: { id: '00000000-0000-0000-0000-000000000000' }, data: { palmVerified: true } })),
      refusalOf(database.db.user.delete({ where: { id: '00000000-0000-0000-0000-000000000000' } })),
    ]);
    expect(refusals.map(isRowGone)).toEqual([true, true, true, true, true]);
    expect(isRowGone(await refusalOf(database.sql.one(echo, ['not a time', 1, []])))).toBe(false);
  });
});
