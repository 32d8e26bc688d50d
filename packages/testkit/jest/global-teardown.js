import pg from 'pg';

export default async function globalTeardown() {
  const name = process.env.SVC_TEST_DATABASE;
  if (name) {
    const admin = new pg.Client({ connectionString: process.env.SVC_TEST_SERVER_URL });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    await admin.end();
  }
  await globalThis.__svcEmbedded?.stop();
}
