import { rm } from 'node:fs/promises';
import pg from 'pg';

export default async function globalTeardown() {
  const name = process.env.SVC_TEST_DATABASE;
  if (name) {
    const admin = new pg.Client({ connectionString: process.env.SVC_TEST_SERVER_URL });
    await admin.connect();
    // With those made beside it: the sandbox's (testSandboxDatabaseUrl) and single suites' (testSuiteDatabaseUrl).
    const beside = await admin.query('SELECT datname FROM pg_database WHERE starts_with(datname, $1)', [`${name}_`]);
    for (const database of [name, ...beside.rows.map((r) => r.datname)])
      await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
    await admin.end();
  }
  const embedded = globalThis.__svcEmbedded;
  await embedded?.stop();
  // Started by global-setup for this run only: its data goes with it.
  if (embedded?.owned) await rm(embedded.dataDir, { recursive: true, force: true });
}
