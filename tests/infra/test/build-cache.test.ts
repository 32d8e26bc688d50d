import { spawnSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';

interface DryTask {
  taskId: string;
  inputs: Record<string, string>;
}

// turbo hashes a task's inputs before its dependencies run. A build that counted what `generate`
// writes (the Prisma client, git-ignored) hashed differently before and after the first
// generation, so the second `npm start` on a fresh clone rebuilt everything.
describe('the build cache', () => {
  it("keys no build or typecheck on generated files, only on the generate task's own inputs", () => {
    const dry = spawnSync('npx', ['turbo', 'run', 'build', 'typecheck', '--dry=json'], {
      cwd: repoRoot,
      encoding: 'utf8',
      env: { ...process.env, TURBO_TELEMETRY_DISABLED: '1' },
    });
    expect(dry.status).toBe(0);
    const tasks = (JSON.parse(dry.stdout) as { tasks: DryTask[] }).tasks.filter((t) => /#(build|typecheck)$/.test(t.taskId));
    expect(tasks.map((t) => t.taskId)).toContain('@svc/db#build');
    const generated = tasks.flatMap((t) =>
      Object.keys(t.inputs)
        .filter((file) => file.startsWith('src/generated/'))
        .map((file) => `${t.taskId}: ${file}`),
    );
    expect(generated).toEqual([]);
  });
});
