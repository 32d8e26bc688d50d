#!/usr/bin/env node
// `npm run test:cluster`: the suites whose state lives in Redis, once more on a real Redis Cluster
// (three primaries, three replicas, made here from redis-server processes) instead of one Redis:
// limits, throttles, caches, the webhook outbox's coordination and the services' flows over them.
// Needs redis-server and redis-cli on PATH, and DATABASE_URL (CI sets it).
import { spawnSync } from 'node:child_process';

const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
if (!process.env.DATABASE_URL) {
  process.stderr.write('test:cluster: set DATABASE_URL (the suites make their databases there)\n');
  process.exit(2);
}
const { startRedisCluster } = await import('@svc/testkit');
const cluster = await startRedisCluster();
process.stdout.write(`[test:cluster] ${cluster.url}\n`);

// Each workspace with the tests that touch Redis; every test of the smaller services.
const SUITES = [
  ['@svc/kv', []],
  ['@svc/api-keys', []],
  ['@svc/wallet-verify', []],
  ['@svc/credential-issuer', ['test/openid4vci', 'test/http', 'test/vc']],
  ['@svc/identity-provider', ['test/limits', 'test/sessions', 'test/passkeys', 'test/tokens', 'test/actions', 'test/webhooks', 'test/data-access']],
];
let failed = 0;
try {
  for (const [workspace, paths] of SUITES) {
    process.stdout.write(`\n[test:cluster] ${workspace} ${paths.join(' ')}\n`);
    const run = spawnSync('npm', ['test', '--workspace', workspace, '--', ...paths], {
      stdio: 'inherit',
      env: { ...process.env, REDIS_URL: cluster.url },
    });
    if (run.status !== 0) failed++;
  }
} finally {
  await cluster.stop();
}
process.stdout.write(`\n[test:cluster] ${failed ? `${failed} workspace(s) failed` : 'every suite passed on the cluster'}\n`);
process.exit(failed ? 1 : 0);
