#!/usr/bin/env node
// `npm run test:scaled-out`: the whole suite once more as a platform team that outgrew one machine
// runs the services: on a Redis Cluster (three primaries, three replicas, made of redis-server
// processes) instead of one Redis, and on a PostgreSQL primary with a streaming replica made by
// pg_basebackup, the services reading their lists from the replica (DATABASE_READ_URL). Both are
// made here and dropped at the end. Needs redis-server and redis-cli on PATH, the PostgreSQL server
// binaries and root (to run them as `postgres`). Extra arguments go to `npm test`.
import { spawnSync } from 'node:child_process';

const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const { canStartPostgresReplica, startPostgresReplica, startRedisCluster } = await import('@svc/testkit');
if (!canStartPostgresReplica()) {
  process.stderr.write('test:scaled-out: a PostgreSQL replica needs the server binaries under /usr/lib/postgresql and root\n');
  process.exit(2);
}
const [cluster, postgres] = await Promise.all([startRedisCluster(), startPostgresReplica()]);
process.stdout.write(`[test:scaled-out] Redis Cluster ${cluster.url}\n`);
process.stdout.write(`[test:scaled-out] PostgreSQL ${postgres.primaryUrl}, its replica ${postgres.replicaUrl}\n`);
let status = 1;
try {
  // Server URLs, as `npm test` takes DATABASE_URL: each suite makes its databases on the primary,
  // and the jest set-up points DATABASE_READ_URL at each one's copy on the replica.
  const env = { ...process.env, REDIS_URL: cluster.url, DATABASE_URL: postgres.primaryUrl, DATABASE_READ_URL: postgres.replicaUrl };
  status = spawnSync('node', ['scripts/test.mjs', ...process.argv.slice(2)], { stdio: 'inherit', env }).status ?? 1;
} finally {
  await Promise.all([cluster.stop(), postgres.stop()]);
}
process.stdout.write(`\n[test:scaled-out] ${status === 0 ? 'every suite passed on the cluster and the replica' : 'failed'}\n`);
process.exit(status);
