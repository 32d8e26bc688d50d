#!/usr/bin/env node
// Each workspace declares exactly what it imports: a package its source imports statically is in
// `dependencies`; one it loads lazily (`await import(...)`, e.g. the embedded PostgreSQL that only
// the launcher starts) may be a devDependency, so production installs leave it out; one only its
// tests or tooling import is in `dependencies` or `devDependencies` (or the root's
// devDependencies, which hold the shared test runner); and nothing declared goes unused. A
// workspace package counts as used where the dependent names its folder (a test that starts the
// `identity-provider` process needs it built first). Packages are what the apps stand on: nothing
// a package ships (its src/, its dependencies) names an app, by package or by path. Run by CI;
// prints every problem, exits 1.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

// `--root DIR` checks another tree (the test of this script uses a scratch monorepo).
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? process.argv[rootArg + 1] : new URL('..', import.meta.url).pathname;
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const SOURCE = /\.(ts|mts|js|mjs|cjs)$/;
const STATIC_IMPORT =
  /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[^\w.])import\s+['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]|\bresolve\(\s*['"]([^'"]+)['"]|createRequire\([^)]*\)\(\s*['"]([^'"]+)['"]/gm;
const LAZY_IMPORT = /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/gm;

function files(dir) {
  let out = [];
  for (const name of readdirSync(dir)) {
    if (['node_modules', 'dist', '.turbo'].includes(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out = out.concat(files(path));
    else if (SOURCE.test(name)) out.push(path);
  }
  return out;
}

/** `@scope/name/sub` → `@scope/name`; `name/sub` → `name`. */
const packageOf = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);

function importsOf(paths, pattern = STATIC_IMPORT) {
  const found = new Set();
  for (const path of paths) {
    for (const m of readFileSync(path, 'utf8').matchAll(pattern)) {
      const spec = m.slice(1).find((g) => g !== undefined);
      if (!spec || spec.startsWith('.') || spec.startsWith('/') || builtins.has(spec) || builtins.has(spec.split('/')[0])) continue;
      found.add(packageOf(spec));
    }
  }
  return found;
}

const workspaces = rootPkg.workspaces.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const base = pattern.slice(0, -2);
  return readdirSync(join(root, base)).map((n) => `${base}/${n}`);
});

// Workspaces that run others as processes through shared helpers rather than naming them: their
// declarations make turbo build those first.
const RUNS = {
  'tests/platform': ['@svc/admin', '@svc/identity-provider', '@svc/wallet-verify', '@svc/credential-issuer'],
};

// Imports that cannot be declared: testkit's database preset depends on @svc/db, and @svc/db on
// @svc/schemas (the webhook events its roles may write), so their own tests reach testkit through
// the workspace root (turbo refuses the cycle a declaration makes).
const UNDECLARABLE = {
  'packages/db': ['@svc/testkit'],
  'packages/schemas': ['@svc/testkit'],
};

/** The package names of the apps, which no package may depend on. */
const appNames = new Map(
  workspaces
    .filter((ws) => ws.startsWith('apps/'))
    .flatMap((ws) => {
      try {
        return [[JSON.parse(readFileSync(join(root, ws, 'package.json'), 'utf8')).name, ws]];
      } catch {
        return [];
      }
    }),
);

/** A package's source files that reach into apps/ by a relative path, each with the path. */
function pathsIntoApps(paths) {
  const found = [];
  for (const path of paths) {
    for (const pattern of [STATIC_IMPORT, LAZY_IMPORT]) {
      for (const m of readFileSync(path, 'utf8').matchAll(pattern)) {
        const spec = m.slice(1).find((g) => g !== undefined);
        if (spec?.startsWith('.') && relative(root, resolve(dirname(path), spec)).startsWith('apps/')) found.push(`${relative(root, path)} (${spec})`);
      }
    }
  }
  return found;
}

const problems = [];
for (const ws of workspaces) {
  const dir = join(root, ws);
  let pkg;
  try {
    pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  } catch {
    continue;
  }
  const deps = new Set(Object.keys(pkg.dependencies ?? {}));
  const devDeps = new Set(Object.keys(pkg.devDependencies ?? {}));
  const all = files(dir);
  const isSource = (p) => relative(dir, p).startsWith('src/') && !/\.test\.[mc]?[jt]s$/.test(p);
  const sourceImports = importsOf(all.filter(isSource));
  const lazyImports = importsOf(all.filter(isSource), LAZY_IMPORT);
  const otherImports = new Set([
    ...importsOf(all.filter((p) => !isSource(p))),
    ...importsOf(
      all.filter((p) => !isSource(p)),
      LAZY_IMPORT,
    ),
  ]);
  const text = all.map((p) => readFileSync(p, 'utf8')).join('\n');
  const namesFolder = (name) => name.startsWith('@svc/') && workspaces.some((w) => w.endsWith(`/${name.slice(5)}`) && text.includes(name.slice(5)));
  // Packages a workspace runs as a command or through its configuration count as used.
  const scripts =
    JSON.stringify(pkg.scripts ?? {}) +
    files(dir)
      .filter((p) => /config|scripts\//.test(relative(dir, p)))
      .map((p) => readFileSync(p, 'utf8'))
      .join('\n');
  for (const name of sourceImports) {
    if (name === pkg.name) continue;
    if (!deps.has(name)) problems.push(`${ws}: src imports ${name}, which is not in dependencies`);
  }
  for (const name of lazyImports) {
    if (name === pkg.name || deps.has(name) || devDeps.has(name) || pkg.optionalDependencies?.[name]) continue;
    problems.push(`${ws}: src loads ${name}, which is declared nowhere`);
  }
  for (const name of otherImports) {
    if (name === pkg.name || deps.has(name) || devDeps.has(name) || name in (rootPkg.devDependencies ?? {}) || (UNDECLARABLE[ws] ?? []).includes(name))
      continue;
    problems.push(`${ws}: tests or tooling import ${name}, which is declared nowhere`);
  }
  for (const name of [...deps, ...devDeps]) {
    if (name.startsWith('@types/')) continue;
    const used =
      sourceImports.has(name) ||
      lazyImports.has(name) ||
      otherImports.has(name) ||
      scripts.includes(name) ||
      namesFolder(name) ||
      (RUNS[ws] ?? []).includes(name);
    if (!used) problems.push(`${ws}: declares ${name} but never uses it`);
  }
  for (const name of deps) if (devDeps.has(name)) problems.push(`${ws}: lists ${name} in both dependencies and devDependencies`);
  if (ws.startsWith('packages/')) {
    for (const name of new Set([...sourceImports, ...lazyImports, ...deps]))
      if (appNames.has(name))
        problems.push(`${ws}: a package may not depend on an app, but it names ${name} (${appNames.get(name)}) in its src or dependencies`);
    for (const at of pathsIntoApps(all.filter(isSource))) problems.push(`${ws}: a package may not depend on an app, but ${at} reaches into apps/`);
  }
}

if (problems.length) {
  process.stderr.write(`${problems.join('\n')}\n${problems.length} dependency problem(s)\n`);
  process.exit(1);
}
process.stdout.write(`dependencies: ${workspaces.length} workspaces declare exactly what they import\n`);
