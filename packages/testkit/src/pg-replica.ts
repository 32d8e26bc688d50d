// A real PostgreSQL primary and its streaming replica for tests, made as a platform team makes one:
// initdb, then pg_basebackup -R -X stream, both run by the `postgres` OS user from the system's
// PostgreSQL binaries, in a scratch directory removed by stop().
import { execFile } from 'node:child_process';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, waitFor } from './processes.js';

const exec = promisify(execFile);
const POSTGRES_ROOT = '/usr/lib/postgresql';

/** The newest installed PostgreSQL's bin directory, when it has what a replica needs; else undefined. */
export function postgresBinaries(): string | undefined {
  if (!existsSync(POSTGRES_ROOT)) return undefined;
  const versions = readdirSync(POSTGRES_ROOT)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((v) => join(POSTGRES_ROOT, v, 'bin')).find((dir) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((b) => existsSync(join(dir, b))));
  return bin;
}

/** Whether this machine can make a replica here: the binaries, and root to run them as `postgres` (initdb refuses root). */
export function canStartPostgresReplica(): boolean {
  return postgresBinaries() !== undefined && userInfo().uid === 0 && existsSync('/usr/sbin/runuser');
}

export interface StartedPostgresReplica {
  /** postgresql://postgres@127.0.0.1:port/postgres, the primary. */
  primaryUrl: string;
  /** The streaming replica of the primary (read-only, hot standby). */
  replicaUrl: string;
  /** One statement on the primary or the replica; its rows. */
  query(on: 'primary' | 'replica', sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** The replica stops applying WAL (it still receives it): what the primary commits from now on is invisible there. */
  pauseReplay(): Promise<void>;
  /** The replica applies WAL again; resolves once it has caught up with the primary. */
  resumeReplay(): Promise<void>;
  /** Until the replica has applied everything the primary committed so far. */
  caughtUp(): Promise<void>;
  /** Stops the replica as a crash would (the primary keeps running). */
  stopReplica(): Promise<void>;
  /** Both servers down (immediate), the directory removed. */
  stop(): Promise<void>;
}

export async function startPostgresReplica(): Promise<StartedPostgresReplica> {
  const bin = postgresBinaries();
  if (!bin || !canStartPostgresReplica())
    throw new Error('a replica needs the PostgreSQL binaries under /usr/lib/postgresql and root (to run them as postgres)');
  const dir = mkdtempSync(join(tmpdir(), 'pg-replica-'));
  const { stdout: ids } = await exec('id', ['-u', 'postgres']);
  const { stdout: gids } = await exec('id', ['-g', 'postgres']);
  chownSync(dir, Number(ids.trim()), Number(gids.trim()));
  const asPostgres = (tool: string, ...args: string[]) => exec('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args], { cwd: dir });
  const [primaryDir, replicaDir] = [join(dir, 'primary'), join(dir, 'replica')];
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const url = (port: number) => `postgresql://postgres@127.0.0.1:${port}/postgres`;
  const pgCtl = (data: string, ...args: string[]) => asPostgres('pg_ctl', '-D', data, '-l', `${data}.log`, ...args);
  const running: string[] = [];

  const stopServer = async (data: string) => {
    if (!running.includes(data)) return;
    await pgCtl(data, '-m', 'immediate', '-w', 'stop').catch(() => undefined);
    running.splice(running.indexOf(data), 1);
  };
  const stop = async () => {
    await Promise.all([...running].map(stopServer));
    rmSync(dir, { recursive: true, force: true });
  };
  const query = async (on: 'primary' | 'replica', sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url(on === 'primary' ? primaryPort : replicaPort), connectionTimeoutMillis: 2_000 });
    await client.connect();
    try {
      return (await client.query(sql, params)).rows as Record<string, unknown>[];
    } finally {
      await client.end();
    }
  };
  const caughtUp = () =>
    waitFor(
      async () => {
        const [{ lsn }] = (await query('primary', 'SELECT pg_current_wal_lsn()::text AS lsn')) as [{ lsn: string }];
        const [{ behind }] = (await query('replica', 'SELECT pg_wal_lsn_diff($1::pg_lsn, pg_last_wal_replay_lsn()) > 0 AS behind', [lsn])) as [
          { behind: boolean },
        ];
        return !behind;
      },
      30_000,
      'the replica to catch up with the primary',
    );

  try {
    await asPostgres('initdb', '-D', primaryDir, '-A', 'trust', '-U', 'postgres', '--no-sync');
    // Durability is not what these tests are about: fsync off keeps them fast.
    appendFileSync(
      join(primaryDir, 'postgresql.conf'),
      [
        `port = ${primaryPort}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'hot_standby = on',
        'fsync = off',
        '',
      ].join('\n'),
    );
    appendFileSync(join(primaryDir, 'pg_hba.conf'), 'host replication all 127.0.0.1/32 trust\n');
    await pgCtl(primaryDir, '-w', 'start');
    running.push(primaryDir);
    await asPostgres('pg_basebackup', '-h', '127.0.0.1', '-p', String(primaryPort), '-U', 'postgres', '-D', replicaDir, '-R', '-X', 'stream');
    // The copied postgresql.conf names the primary's port; the last setting wins.
    appendFileSync(join(replicaDir, 'postgresql.conf'), `port = ${replicaPort}\n`);
    await pgCtl(replicaDir, '-w', 'start');
    running.push(replicaDir);
    await waitFor(
      async () => ((await query('replica', 'SELECT pg_is_in_recovery() AS r').catch(() => [])) as { r?: boolean }[])[0]?.r === true,
      30_000,
      'the replica to be in recovery',
    );
    // A row written on the primary shows on the replica: it streams.
    await query('primary', 'CREATE TABLE replica_probe (id int PRIMARY KEY); INSERT INTO replica_probe VALUES (1)');
    await waitFor(
      async () => (await query('replica', 'SELECT count(*)::int AS n FROM replica_probe').catch(() => [{ n: 0 }]))[0]?.n === 1,
      30_000,
      'a row written on the primary to reach the replica',
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    primaryUrl: url(primaryPort),
    replicaUrl: url(replicaPort),
    query,
    pauseReplay: async () => {
      await query('replica', 'SELECT pg_wal_replay_pause()');
    },
    resumeReplay: async () => {
      await query('replica', 'SELECT pg_wal_replay_resume()');
      await caughtUp();
    },
    caughtUp,
    stopReplica: () => stopServer(replicaDir),
    stop,
  };
}

/**
 * Until an organization's read-after-write window is over, asking where its read would go (which
 * touches no replica). The window counts from before the write began, so a slow write eats into
 * it: a test waits it out rather than sleeping a fixed time.
 */
export async function windowPassed(reads: { target(organizationId: string): Promise<string> }, organizationId: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while ((await reads.target(organizationId)) === 'primary') {
    if (Date.now() > deadline) throw new Error('the read-after-write window never passed');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
