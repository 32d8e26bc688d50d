import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate, startEmbeddedPostgres, type EmbeddedDatabase } from '@svc/db';

/** Where local state lives (embedded PostgreSQL, demo secrets): `SVC_DATA_DIR` or `<repo>/.data`. */
export function dataDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.SVC_DATA_DIR ? resolve(env.SVC_DATA_DIR) : fileURLToPath(new URL('../../../.data', import.meta.url));
}

export interface LocalDatabase {
  url: string;
  embedded: EmbeddedDatabase | undefined;
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set (a real server, migrated by the platform's own job); otherwise the
 * embedded cluster under the data dir, started if needed and migrated, for local use.
 */
export async function openLocalDatabase(env: NodeJS.ProcessEnv = process.env, onLog?: (line: string) => void): Promise<LocalDatabase> {
  if (env.DATABASE_URL) return { url: env.DATABASE_URL, embedded: undefined, close: async () => undefined };
  const embedded = await startEmbeddedPostgres({
    dataDir: join(dataDir(env), 'postgres'),
    port: Number(env.EMBEDDED_PG_PORT ?? 54329),
    ...(onLog ? { onLog } : {}),
  });
  await migrate(embedded.url);
  return { url: embedded.url, embedded, close: () => embedded.stop() };
}
