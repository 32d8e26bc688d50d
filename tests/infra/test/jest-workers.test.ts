import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';

const caches: string[] = [];
afterAll(() => {
  for (const cache of caches) rmSync(cache, { recursive: true, force: true });
});

/** jest on the fixture's two files, in workers that are busy for 1.5 s when jest asks them to end (busy-environment.js). */
function runBusyWorkers(graceMs?: number) {
  const env = { ...process.env };
  delete env.JEST_WORKER_ID;
  if (graceMs === undefined) delete env.JEST_GRACE_MS;
  else env.JEST_GRACE_MS = String(graceMs);
  // A cache of its own each time: with timings of an earlier run, jest runs two fast files in band.
  const cache = mkdtempSync(join(tmpdir(), 'jest-workers-'));
  caches.push(cache);
  return spawnSync(
    process.execPath,
    ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning', join(repoRoot, 'node_modules/jest/bin/jest.js'), '--cacheDirectory', cache],
    { cwd: join(import.meta.dirname, 'fixtures/busy-worker'), env, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('the shared jest preset', () => {
  // On a busy machine jest printed "a worker process has failed to exit gracefully" at
  // the end of passing runs, when a worker's event loop was held as jest asked it to end.
  it('reproduces the warning with jest’s own wait (500 ms) and two workers busy when asked to end', () => {
    const run = runBusyWorkers(500);
    expect(run.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(run.stderr).toMatch(/busy worker: holding/);
    expect(run.stderr).toMatch(/failed to exit gracefully/);
  });

  it('lets those workers exit without jest forcing them out', () => {
    const run = runBusyWorkers();
    expect(run.stderr).toMatch(/Tests:\s+2 passed, 2 total/);
    expect(run.stderr).toMatch(/busy worker: holding/);
    expect(run.stderr).not.toMatch(/failed to exit gracefully/);
    expect(run.status).toBe(0);
  });
});
