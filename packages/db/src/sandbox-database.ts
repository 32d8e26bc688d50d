import pg from 'pg';

/**
 * The sandbox's database when SANDBOX_DATABASE_URL is not given: on production's server, production's
 * database name with `_sandbox` appended (docs/sandbox.md). Users, clients and keys never mix.
 */
export function sandboxDatabaseUrl(productionUrl: string): string {
  const url = new URL(productionUrl);
  const name = decodeURIComponent(url.pathname.slice(1)) || 'postgres';
  url.pathname = `/${encodeURIComponent(`${name}_sandbox`)}`;
  return url.toString();
}

/**
 * Creates the database `url` names unless it exists, through the server's `postgres` database.
 * Two callers at once are fine: the loser's CREATE fails as a duplicate, which is what it wanted.
 */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const maintenance = new URL(url);
  maintenance.pathname = '/postgres';
  const client = new pg.Client({ connectionString: maintenance.toString(), connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((err: { code?: string }) => {
        // 42P04 duplicate_database; 23505 when both passed the check and raced in the catalog.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}
