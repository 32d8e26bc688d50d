import { rm } from 'node:fs/promises';
import pg from 'pg';

export default async function globalTeardown() {
  const name = process.env.SVC_TEST_DATABASE;
  if (name) {
    const admin = new pg.Client({ connectionString: process.env.SVC_TEST_SERVER_URL });
    await admin.connect();
    // With those made beside it: the sandbox's (testSandboxDatabaseUrl) and single suites' (testSuiteDatabaseUrl).
    const beside = await admin.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${name}_`]);
    await reportReplicaReads(name);
    for (const database of [name, ...beside.rows.map((r) => r.datname)])
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
    await admin.end();
  }
  const embedded = globalThis.__svcEmbedded;
  await embedded?.stop();
  // Started by global-setup for this run only: its data goes with it.
  if (embedded?.owned) await rm(embedded.dataDir, { recursive: true, force: true });
}

/**
 * On a run with a read replica (npm run test:scaled-out), how many transactions the replica's
 * copies of this run's databases served: the proof that the lists were read there at all.
 */
async function reportReplicaReads(name) {
  const server = process.env.SVC_TEST_READ_SERVER_URL;
  if (!server) return;
  const replica = new pg.Client({ connectionString: server });
  await replica.connect();
  try {
    const { rows } = await replica.query(
      'SELECT coalesce(sum(xact_commit + xact_rollback), 0)::int AS n FROM pg_stat_database WHERE datname = $1 OR starts_with(datname, $2)',
      [name, `${name}_`],
    );
    process.stdout.write(`[replica] ${rows[0].n} transactions on the replica's copies of ${name}\n`);
  } finally {
    await replica.end();
  }
}

