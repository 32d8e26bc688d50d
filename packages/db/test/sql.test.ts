import { afterAll, describe, expect, it } from '@jest/globals';
import { createDatabase, isUniqueViolation, statement } from '../src/index.js';

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

describe('isUniqueViolation', () => {
  const refusalOf = (write: Promise<unknown>) =>
    write.then(
      () => undefined,
      (err: unknown) => err,
    );
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
