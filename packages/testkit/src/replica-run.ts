// A test run on a PostgreSQL primary with a streaming replica (`npm run test:scaled-out`): the
// run's DATABASE_READ_URL names the replica's server, as DATABASE_URL names the primary's, and every
// service a suite builds on one of the run's databases reads its lists from that database's copy
// on the replica, as a deployment with DATABASE_READ_URL set does.
import pg from 'pg';

/** The replica's server (set by the jest-preset-db global set-up when the run has one). */
const replicaServer = () => process.env.SVC_TEST_READ_SERVER_URL || undefined;

/**
 * The replica's copy of `databaseUrl`, when this run has a replica and `databaseUrl` is one of the
 * run's databases on the primary; otherwise undefined (a test's own or unreachable database keeps
 * every read on it).
 */
export function testDatabaseReadUrl(databaseUrl: string): string | undefined {
  const server = replicaServer();
  const primary = process.env.SVC_TEST_SERVER_URL;
  if (!server || !primary) return undefined;
  const url = new URL(databaseUrl);
  if (url.host !== new URL(primary).host) return undefined;
  const read = new URL(server);
  read.pathname = url.pathname;
  return read.toString();
}

/**
 * `env` with the replica's copy of its DATABASE_URL as DATABASE_READ_URL, unless it names one of its
 * own: what every suite passes to the services it builds or starts.
 */
export function withTestReplica<T extends NodeJS.ProcessEnv>(env: T): T {
  if (env.DATABASE_READ_URL !== undefined || !env.DATABASE_URL) return env;
  const read = testDatabaseReadUrl(env.DATABASE_URL);
  return read ? { ...env, DATABASE_READ_URL: read } : env;
}

/**
 * Until the run's replica has replayed everything the primary committed so far (at once without a
 * replica): for a database made just now, and for rows a test writes straight into the database,
 * which the services' read-after-write window does not cover, as it does not cover the admin CLI.
 */
export async function testReplicaCaughtUp(): Promise<void> {
  const server = replicaServer();
  const primary = process.env.SVC_TEST_SERVER_URL;
  if (!server || !primary) return;
  const [{ lsn }] = (await on(primary, 'SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
  const deadline = Date.now() + 30_000;
  for (;;) {
    const [row] = await on(server, 'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) <= 0 AS done', [lsn]);
    if (row?.done === true) return;
    if (Date.now() > deadline) throw new Error(`the run's replica did not replay ${lsn} within 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function on(url: string, sql: string, params: unknown[] = []): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}
