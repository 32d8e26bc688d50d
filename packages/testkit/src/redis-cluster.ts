// A real Redis Cluster for tests: `primaries` redis-server processes in cluster mode, each with a
// replica, made with redis-cli --cluster create in a scratch directory, as a platform team runs one.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, type Running, run, waitFor } from './processes.js';

const exec = promisify(execFile);

export interface RedisClusterNode {
  port: number;
  process: Running;
}

export interface StartedRedisCluster {
  /** redis+cluster://127.0.0.1:port,… : every node, as REDIS_URL names a cluster. */
  url: string;
  nodes: RedisClusterNode[];
  /** The port of the primary that serves `key`'s slot now. */
  primaryOf(key: string): Promise<number>;
  /** Stops a node as a crash would (SIGKILL), and waits until the cluster has promoted its replica and is whole again. */
  kill(port: number): Promise<void>;
  /** redis-cli against a node: its answer as text. */
  cli(port: number, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

export async function startRedisCluster(primaries = 3): Promise<StartedRedisCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'redis-cluster-'));
  const nodes: RedisClusterNode[] = [];
  const cli = async (port: number, ...args: string[]) => (await exec('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...args])).stdout.trim();
  for (let i = 0; i < primaries * 2; i++) {
    const [port, bus] = [await freePort(), await freePort()];
    // A node failing for a second is failed over: tests see a failover in seconds, not the default 15.
    const args = ['--port', String(port), '--cluster-port', String(bus), '--cluster-enabled', 'yes', '--cluster-node-timeout', '1000'];
    args.push('--cluster-config-file', `nodes-${port}.conf`, '--dir', dir, '--save', '', '--appendonly', 'no', '--bind', '127.0.0.1');
    // A replica's first sync at once, not after the default 5 s of waiting for more replicas.
    args.push('--repl-diskless-sync-delay', '0');
    const process = run('redis-server', args, { PATH: globalThis.process.env.PATH ?? '' }, false, dir);
    nodes.push({ port, process });
  }
  const stop = async () => {
    for (const node of nodes) if (node.process.child.exitCode === null) node.process.child.kill('SIGKILL');
    await Promise.all(nodes.map((n) => (n.process.child.exitCode === null ? n.process.exited : undefined)));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const node of nodes)
      await waitFor(async () => (await cli(node.port, 'ping').catch(() => '')) === 'PONG', 10_000, `redis-server on ${node.port}`, node.process.output);
    await exec('redis-cli', ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '1', '--cluster-yes']);
    await whole(cli, nodes);
    // Every primary's replica in sync, so a failover loses nothing a test waited for (WAIT).
    await waitFor(
      async () => {
        const roles = await Promise.all(nodes.map((n) => cli(n.port, 'info', 'replication')));
        return roles.filter((r) => r.includes('role:master') && r.includes('connected_slaves:1') && r.includes('state=online')).length === primaries;
      },
      30_000,
      'every primary to have its replica',
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url: `redis+cluster://${nodes.map((n) => `127.0.0.1:${n.port}`).join(',')}`,
    nodes,
    cli,
    async primaryOf(key) {
      const slot = Number(await cli(nodes[0]!.port, 'cluster', 'keyslot', key));
      const ranges = JSON.parse(await cli(nodes[0]!.port, '--json', 'cluster', 'slots')) as [number, number, [string, number, ...unknown[]]][];
      const range = ranges.find(([from, to]) => slot >= from && slot <= to);
      if (!range) throw new Error(`no primary serves slot ${slot}`);
      return range[2][1];
    },
    async kill(port) {
      const node = nodes.find((n) => n.port === port)!;
      node.process.child.kill('SIGKILL');
      await node.process.exited;
      const alive = nodes.filter((n) => n !== node);
      // Until every node has marked it failed and maps no slot to it: right after the kill the
      // others have not noticed yet, and would still call the cluster whole.
      await waitFor(
        async () => {
          for (const n of alive) {
            const known = await cli(n.port, 'cluster', 'nodes').catch(() => '');
            const flags =
              known
                .split('\n')
                .find((l) => l.includes(`:${port}@`))
                ?.split(' ')[2] ?? '';
            if (!flags.split(',').includes('fail')) return false;
            const slots = JSON.parse((await cli(n.port, '--json', 'cluster', 'slots').catch(() => '')) || '[]') as [number, number, [string, number]][];
            if (slots.some((range) => range[2][1] === port)) return false;
          }
          return true;
        },
        30_000,
        `the cluster to fail over from ${port}`,
      );
      await whole(cli, alive, primaries);
    },
    stop,
  };
}

/** Until every live node says the cluster is ok and `primaries` primaries serve all the slots. */
async function whole(cli: (port: number, ...args: string[]) => Promise<string>, nodes: RedisClusterNode[], primaries?: number): Promise<void> {
  await waitFor(
    async () => {
      for (const node of nodes) {
        const info = await cli(node.port, 'cluster', 'info').catch(() => '');
        if (!info.includes('cluster_state:ok') || !info.includes('cluster_slots_ok:16384')) return false;
        if (primaries !== undefined && !info.includes(`cluster_size:${primaries}`)) return false;
        // Each node must know the others' roles as they are now (a promoted replica is a primary).
        const known = await cli(node.port, 'cluster', 'nodes').catch(() => '');
        if (known.includes('fail?')) return false;
      }
      return true;
    },
    30_000,
    'the Redis Cluster to be whole',
  );
}
