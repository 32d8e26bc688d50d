import type pg from 'pg';

/**
 * A statement a hot path runs many times a second. Each pooled connection prepares it once, under
 * `name`, and from then on only binds and executes it: no Prisma query interpreter on the way and
 * no parse or plan in PostgreSQL.
 */
export interface Statement<Row> {
  readonly name: string;
  readonly text: string;
  /** Never read: carries the row type. */
  readonly row?: Row;
}

export const statement = <Row>(name: string, text: string): Statement<Row> => ({ name, text });

/**
 * The pg driver under the Prisma client, for the few queries where Prisma's per-call cost shows in
 * the request rate (measured: 7-12% of the CPU of a bearer request). Everything else stays on Prisma.
 * Pass timestamps as ISO strings (`toISOString()`), never `Date`: the driver would send local time.
 */
export class Sql {
  constructor(private readonly pool: pg.Pool) {}

  async rows<Row>(s: Statement<Row>, values: unknown[]): Promise<Row[]> {
    const result = await this.pool.query<Row & pg.QueryResultRow>({ name: s.name, text: s.text, values });
    return result.rows;
  }

  async one<Row>(s: Statement<Row>, values: unknown[]): Promise<Row | undefined> {
    return (await this.rows(s, values))[0];
  }
}
