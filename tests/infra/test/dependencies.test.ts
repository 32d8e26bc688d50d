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

  it('refuses a package that depends on an app, by name or by path; its tests may still start one', () => {
    const root = scratch(
      { dependencies: { '@svc/app': '0.1.0' } },
      `${imp(" { createApp } from '@svc/app';")}\n${imp(" { config } from '../../../apps/app/src/config.js';")}\nexport { createApp, config };\n`,
    );
    writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'scratch', workspaces: ['packages/*', 'apps/*'], devDependencies: {} }));
    mkdirSync(join(root, 'apps/app/src'), { recursive: true });
    writeFileSync(join(root, 'apps/app/package.json'), JSON.stringify({ name: '@svc/app' }));
    writeFileSync(join(root, 'apps/app/src/config.ts'), 'export const config = {};\n');
    const run = check(root);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('packages/a: a package may not depend on an app, but it names @svc/app (apps/app) in its src or dependencies');
    expect(run.stderr).toContain(
      'packages/a: a package may not depend on an app, but packages/a/src/index.ts (../../../apps/app/src/config.js) reaches into apps/',
    );

    // A test that starts the app is no dependency of what the package ships.
    writeFileSync(join(root, 'packages/a/package.json'), JSON.stringify({ name: '@svc/a', devDependencies: { '@svc/app': '0.1.0' } }));
    writeFileSync(join(root, 'packages/a/src/index.ts'), 'export const a = 1;\n');
    mkdirSync(join(root, 'packages/a/test'));
    writeFileSync(join(root, 'packages/a/test/app.test.ts'), `${imp(" { config } from '@svc/app';")}\nexport { config };\n`);
    const allowed = check(root);
    expect(allowed.stderr).toBe('');
    expect(allowed.status).toBe(0);
  });
});
