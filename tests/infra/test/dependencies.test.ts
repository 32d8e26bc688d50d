import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { repoRoot } from '@svc/testkit';

// Import statements for the scratch sources, spelled so this file's own scan does not read them as imports.
const imp = (rest: string) => `${'im'}port${rest}`;

const check = (root?: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'scripts/check-deps.mjs'), ...(root ? ['--root', root] : [])], { encoding: 'utf8' });

function scratch(pkg: Record<string, unknown>, source: string): string {
  const root = mkdtempSync(join(tmpdir(), 'deps-'));
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scratch', workspaces: ['packages/*'], devDependencies: {} }));
  mkdirSync(join(root, 'packages/a/src'), { recursive: true });
  writeFileSync(join(root, 'packages/a/package.json'), JSON.stringify({ name: '@svc/a', ...pkg }));
  writeFileSync(join(root, 'packages/a/src/index.ts'), source);
  return root;
}

describe('the workspace dependency check (CI)', () => {
  it('passes on this repository', () => {
    const run = check();
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('reports a package used but not declared, and one declared but not used', () => {
    const run = check(scratch({ dependencies: { 'left-pad': '1' } }, `${imp(" { z } from 'zod';")}\n${imp(" { readFileSync } from 'node:fs';")}\n`));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('packages/a: src imports zod, which is not in dependencies');
    expect(run.stderr).toContain('packages/a: declares left-pad but never uses it');
  });

  it('lets a lazily loaded package be a devDependency, never a static import', () => {
    expect(check(scratch({ devDependencies: { heavy: '1' } }, `export const load = () => ${imp("('heavy')")};\n`)).status).toBe(0);
    expect(check(scratch({ devDependencies: { heavy: '1' } }, `${imp(" 'heavy';")}\n`)).stderr).toContain('src imports heavy, which is not in dependencies');
  });
});
