#!/usr/bin/env node
// `npm run --silent admin -- <command> [flags]`: the admin CLI, built on first use and whenever a
// source file of it or of a package it uses changed since its last build (@svc/admin's own build
// writes the stamp too, so after `npm run build` none is needed), otherwise run at once (no build
// tool in the way). The build's own output goes to stderr, so stdout stays one JSON object for `| jq`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'packages/admin/dist/cli.js');
const stamp = join(root, 'packages/admin/dist/.built');

/** The workspace packages the CLI is made of: @svc/admin and its dependencies, transitively. */
function closure() {
  const dirs = new Map();
  for (const entry of readdirSync(join(root, 'packages'))) {
    const file = join(root, 'packages', entry, 'package.json');
    if (existsSync(file)) dirs.set(JSON.parse(readFileSync(file, 'utf8')).name, join(root, 'packages', entry));
  }
  const seen = new Set();
  const visit = (name) => {
    if (seen.has(name) || !dirs.has(name)) return;
    seen.add(name);
    const pkg = JSON.parse(readFileSync(join(dirs.get(name), 'package.json'), 'utf8'));
    for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep);
  };
  visit('@svc/admin');
  return [...seen].map((name) => dirs.get(name));
}

function newestSource() {
  let newest = 0;
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'generated' || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  };
  for (const dir of closure()) {
    for (const part of ['src', 'prisma']) if (existsSync(join(dir, part))) walk(join(dir, part));
    newest = Math.max(newest, statSync(join(dir, 'package.json')).mtimeMs);
  }
  return newest;
}

if (!existsSync(cli) || !existsSync(stamp) || newestSource() > statSync(stamp).mtimeMs) {
  process.stderr.write('admin: building the CLI (once; again only after its sources change)\n');
  const built = spawnSync('npx', ['turbo', 'run', 'build', '--filter=@svc/admin...', '--output-logs=errors-only'], {
    cwd: root,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  writeFileSync(stamp, '');
}
await import(pathToFileURL(cli).href);
