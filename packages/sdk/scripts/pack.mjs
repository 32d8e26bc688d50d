#!/usr/bin/env node
// `npm run -w @svc/sdk pack -- [--out DIR]`: the SDK as an npm tarball another project installs
// (`npm install ./svc-sdk-0.1.0.tgz`): the built JavaScript and declarations, no runtime
// dependency, nothing from this monorepo. Prints the tarball's path.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('..', import.meta.url));
const outIndex = process.argv.indexOf('--out');
const out = resolve(outIndex > 0 ? process.argv[outIndex + 1] : here);
const workspace = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));

const files = readdirSync(join(here, 'dist')).filter((f) => f.endsWith('.js') || f.endsWith('.d.ts'));
if (!files.includes('index.js')) throw new Error('packages/sdk/dist is missing: run npm run build first');
// Self-contained means no import of anything but Node's built-ins and the package's own files.
for (const file of files) {
  const text = readFileSync(join(here, 'dist', file), 'utf8');
  const foreign = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1]).filter((s) => !s.startsWith('./') && !s.startsWith('node:'));
  if (foreign.length) throw new Error(`dist/${file} imports ${foreign.join(', ')}: the packed SDK must stand alone`);
}

const stage = mkdtempSync(join(tmpdir(), 'svc-sdk-pack-'));
try {
  for (const file of files) cpSync(join(here, 'dist', file), join(stage, 'dist', file));
  cpSync(join(here, 'README.md'), join(stage, 'README.md'));
  const manifest = {
    name: workspace.name,
    version: workspace.version,
    description: workspace.description,
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    types: './dist/index.d.ts',
    files: ['dist'],
    // ES modules only: from 22.12 Node.js loads them with `require` too (CommonJS projects), and
    // gives `require` and `import` the same instances, where a second, CommonJS build would make two
    // copies of the error classes that `instanceof` tells apart.
    engines: { node: '>=22.12' },
    sideEffects: false,
  };
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const [packed] = JSON.parse(execFileSync('npm', ['pack', stage, '--pack-destination', out, '--json', '--silent'], { encoding: 'utf8' }));
  process.stdout.write(`${join(out, packed.filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
