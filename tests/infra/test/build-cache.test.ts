import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';

interface DryTask {
  taskId: string;
  hash: string;
  inputs: Record<string, string>;
}

// turbo hashes a task's inputs before its dependencies run. A build that counted what `generate`
// writes (the Prisma client, git-ignored) hashed differently before and after the first
// generation, so the second `npm start` on a fresh clone rebuilt everything.
function dryRun(env: NodeJS.ProcessEnv): DryTask[] {
  const dry = spawnSync('npx', ['turbo', 'run', 'build', 'typecheck', '--dry=json'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...env, TURBO_TELEMETRY_DISABLED: '1' },
  });
  expect(dry.status).toBe(0);
  return (JSON.parse(dry.stdout) as { tasks: DryTask[] }).tasks.filter((t) => /#(build|typecheck)$/.test(t.taskId));
}

describe('the build cache', () => {
  it("keys no build or typecheck on generated files, only on the generate task's own inputs", () => {
    const tasks = dryRun(process.env);
    expect(tasks.map((t) => t.taskId)).toContain('@svc/db#build');
    const generated = tasks.flatMap((t) =>
      Object.keys(t.inputs)
        .filter((file) => file.startsWith('src/generated/'))
        .map((file) => `${t.taskId}: ${file}`),
    );
    expect(generated).toEqual([]);
  });

  // Jest sets NODE_ENV=test and CI sets CI; `npm start` run from a test (or a CI job) must reuse
  // the build `npm test` made rather than rebuild the files other tests are running from.
  it('keys no build on NODE_ENV or CI, so npm start inside a test or a CI job reuses the build', () => {
    const hashes = (env: NodeJS.ProcessEnv) => Object.fromEntries(dryRun(env).map((t) => [t.taskId, t.hash]));
    const { NODE_ENV: _n, CI: _c, ...bare } = process.env;
    expect(hashes({ ...bare, NODE_ENV: 'test', CI: 'true' })).toEqual(hashes(bare));
  });
});
