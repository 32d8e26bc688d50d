import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';
import { parse } from 'yaml';
import { read } from './manifests.js';

const { validateWorkflow } = createRequire(import.meta.url)('@action-validator/core') as { validateWorkflow(src: string): { errors: unknown[] } };

const source = read('.github/workflows/ci.yml');
const workflow = parse(source) as {
  jobs: Record<
    string,
    {
      services: Record<string, { image: string; options: string }>;
      env: Record<string, string>;
      steps: { run?: string; if?: string }[];
      strategy?: { matrix: { service: string[] } };
    }
  >;
};
const job = workflow.jobs.affected!;

describe('.github/workflows/ci.yml', () => {
  it('is a valid GitHub Actions workflow', () => {
    expect(validateWorkflow(source).errors).toEqual([]);
  });

  it('runs build, type-check, lint and tests for the affected workspaces only, against real PostgreSQL and Redis', () => {
    const runs = job.steps.map((s) => s.run ?? '').join('\n');
    expect(runs).toMatch(/turbo run build typecheck lint test --affected/);
    expect(Object.keys(job.services).sort()).toEqual(['postgres', 'redis']);
    for (const service of Object.values(job.services)) expect(service.options).toMatch(/--health-cmd/);
    expect(job.env.DATABASE_URL).toMatch(/^postgresql:\/\/.+@127\.0\.0\.1:5432\//);
    expect(job.env.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('checks the whole repository’s declared dependencies, import circles and folder order on every change', () => {
    const runs = job.steps.map((s) => s.run ?? '');
    expect(runs).toContain('npm run --silent check:deps');
    expect(runs).toContain('npm run --silent check:cycles');
  });

  it('installs exactly the lockfile (npm ci, no fallback) on Node.js 24', () => {
    for (const name of ['affected', 'images']) {
      const runs = workflow.jobs[name]!.steps.map((s) => s.run ?? '');
      expect(runs).toContain('npm ci --no-audit --no-fund');
      expect(runs.join('\n')).not.toMatch(/npm install/);
    }
    expect(source).toMatch(/node-version: 24/);
  });

  it('builds the image of each affected app from its Dockerfile', () => {
    const images = workflow.jobs.images!;
    expect(images.strategy!.matrix.service).toEqual(['identity-provider', 'wallet-verify', 'credential-issuer']);
    const build = images.steps.find((s) => s.run?.startsWith('docker build'))!;
    expect(build.run).toMatch(/-f infra\/\$\{\{ matrix\.service \}\}\.Dockerfile/);
    expect(build.if).toBe("steps.affected.outputs.build == 'true'");
  });
});

/** What turbo --affected selects after one commit that changes `file`, in a scratch clone. */
describe('what a change affects', () => {
  let clone: string;
  beforeAll(() => {
    clone = mkdtempSync(join(tmpdir(), 'affected-'));
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${repoRoot}`, clone]);
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  function affectedApps(file: string): string[] {
    execFileSync('git', ['checkout', '--quiet', '-B', `change-${file.replace(/\W/g, '-')}`, 'HEAD'], { cwd: clone });
    appendFileSync(join(clone, file), '\n// a change\n');
    execFileSync('git', ['-c', 'user.email=ci@example.com', '-c', 'user.name=ci', 'commit', '--quiet', '-am', `change ${file}`], { cwd: clone });
    const out = execFileSync(`${repoRoot}node_modules/.bin/turbo`, ['run', 'build', '--affected', '--dry=json'], {
      cwd: clone,
      env: { ...process.env, TURBO_SCM_BASE: 'HEAD~1' },
      stdio: ['ignore', 'pipe', 'ignore'],
    }).toString();
    execFileSync('git', ['reset', '--quiet', '--hard', 'HEAD~1'], { cwd: clone });
    const packages = (JSON.parse(out.slice(out.indexOf('{'))) as { packages: string[] }).packages;
    return packages.filter((p) => ['@svc/identity-provider', '@svc/wallet-verify', '@svc/credential-issuer'].includes(p)).sort();
  }

  it('rebuilds every app when a package they all use changes', () => {
    expect(affectedApps('packages/schemas/src/common.ts')).toEqual(['@svc/credential-issuer', '@svc/identity-provider', '@svc/wallet-verify']);
    expect(affectedApps('packages/http/src/errors.ts')).toEqual(['@svc/credential-issuer', '@svc/identity-provider', '@svc/wallet-verify']);
  });

  it('rebuilds only the apps that use a package', () => {
    expect(affectedApps('packages/query-engine/src/values.ts')).toEqual(['@svc/credential-issuer', '@svc/identity-provider']);
    expect(affectedApps('packages/api-keys/src/key-limiter.ts')).toEqual(['@svc/credential-issuer', '@svc/wallet-verify']);
  });

  it('rebuilds only the app whose own files changed', () => {
    expect(affectedApps('apps/wallet-verify/src/server.ts')).toEqual(['@svc/wallet-verify']);
    expect(affectedApps('apps/credential-issuer/src/server.ts')).toEqual(['@svc/credential-issuer']);
  });
});
