// For tests and benchmarks that measure how many statements a request costs: every statement a
// pooled connection of this process sends to PostgreSQL from now on is counted (the change
// listener's own connection, which no request uses, is not).
import pg from 'pg';

let counted = 0;
let installed = false;

/** Starts counting (once per process); `statements()` then reads the count so far. */
export function countStatements(): { statements: () => number } {
  if (!installed) {
    installed = true;
    const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
    pg.Client.prototype.query = function (this: pg.Client & { release?: unknown }, ...args: unknown[]) {
      // A pool hands its clients out with release(): the services' queries, Prisma's and Sql's alike.
      if (typeof this.release === 'function') counted++;
      return query.apply(this, args);
    } as typeof pg.Client.prototype.query;
  }
  return { statements: () => counted };
}
