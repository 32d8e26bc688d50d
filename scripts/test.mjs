#!/usr/bin/env node
// `npm test`: every workspace's tests through turbo. With DATABASE_URL/REDIS_URL set (CI) the
// suites use those servers; without DATABASE_URL one embedded PostgreSQL serves the whole run.
// Each suite creates, migrates and drops a database of its own, so none depends on another.
// Extra arguments go to turbo, e.g. `npm test -- --filter=@svc/wallet-verify`.
import { spawn, spawnSync } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

// Build first: on a fresh clone nothing is built yet, and the helpers below live in dist/.
const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const { startEmbeddedPostgres } = await import('@svc/db');
const { dataDir } = await import('@svc/admin');

const env = { ...process.env };
let embedded;
const embeddedDir = join(dataDir(env), 'test-postgres');
if (!env.DATABASE_URL) {
  embedded = await startEmbeddedPostgres({ dataDir: embeddedDir, port: Number(env.TEST_PG_PORT ?? 54330), database: 'postgres' });
  env.DATABASE_URL = embedded.url;
  process.stdout.write(`[test] embedded PostgreSQL at ${new URL(embedded.url).host}\n`);
}
process.stdout.write(
  `[test] Redis: ${env.REDIS_URL ? env.REDIS_URL.replace(/\/\/[^@]*@/, '//') : 'none (in-process store; set REDIS_URL for the Redis contract runs)'}\n`,
);

// --continue: a failing workspace does not stop the others, so the closing line counts every test.
const turbo = spawn('npx', ['turbo', 'run', 'test', '--concurrency=2', '--continue', '--output-logs=new-only', ...process.argv.slice(2)], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
// Jest prints a summary per workspace; add them up into one closing line for the whole run.
const totals = { passed: 0, failed: 0, skipped: 0, suites: 0 };
// A suite jest reported failing, even if its workspace's summary never came (a killed run).
let sawFailure = false;
let pending = '';
turbo.stdout.on('data', (chunk) => {
  process.stdout.write(chunk);
  const lines = (pending + chunk).split('\n');
  pending = lines.pop();
  for (const line of lines) {
    if (/:test: FAIL /.test(line)) sawFailure = true;
    // A suite that fails outside its tests (set-up, or a check when it ends) counts here only.
    const suites = /Test Suites:\s+(\d+) failed/.exec(line);
    if (suites) totals.suites += Number(suites[1]);
    const summary = /Tests:\s+(.*)\d+ total/.exec(line);
    if (!summary) continue;
    for (const [, n, kind] of summary[1].matchAll(/(\d+) (passed|failed|skipped)/g)) totals[kind] += Number(n);
  }
});
const code = await new Promise((resolve) => turbo.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
await embedded?.stop();
// The cluster held only this run's throw-away databases: nothing of it is kept (about 55 MB).
if (embedded?.owned) await rm(embeddedDir, { recursive: true, force: true });
process.stdout.write(
  `\ntests: ${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}${totals.suites ? ` (${totals.suites} suites failed)` : ''}${sawFailure && !totals.suites ? ' (a suite failed before its workspace summed up)' : ''}\n`,
);
process.exit(code || (sawFailure || totals.failed || totals.suites ? 1 : 0));
