#!/usr/bin/env node
// No import circles inside a workspace: a module that (even for a type) imports one that imports
// it back ties two files together, so neither can be read, moved or tested alone. Every relative
// import in a workspace's src/ counts, `import type` included; generated code (Prisma's client)
// is left out. In the apps named below, the top-level folders of src/ (its capabilities and its
// kit) must import one way too: no circle among folders, even where no two files form one. And
// where scripts/folder-order.json declares an app's layers, from the ground up, every top-level
// folder and file of its src/ has a place in them, and no import points from a layer to a higher
// one. Run by CI; prints each circle and each import against the order, with its line, exits 1.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

// `--root DIR` checks another tree (the test of this script uses a scratch monorepo).
const rootArg = process.argv.indexOf('--root');
const root = rootArg > 0 ? process.argv[rootArg + 1] : new URL('..', import.meta.url).pathname;
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// Apps whose src/ folders form no circle.
const ONE_WAY_APPS = ['apps/credential-issuer', 'apps/identity-provider', 'apps/wallet-verify'];
// The declared order of each app's rooms (the top-level folders and files of src/), ground first.
const ORDER_FILE = 'scripts/folder-order.json';
const ORDER = existsSync(join(root, ORDER_FILE)) ? JSON.parse(readFileSync(join(root, ORDER_FILE), 'utf8')) : {};
const SKIPPED = ['node_modules', 'dist', 'generated'];
const SOURCE = /\.(ts|mts|js|mjs)$/;
const IMPORT = /(?:^|[^\w.])(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|[^\w.])import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    if (SKIPPED.includes(name)) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a relative specifier names: `./x.js` is x.ts in the source (or x.js itself). */
function target(from, spec) {
  const path = resolve(dirname(from), spec);
  const candidates = [path, path.replace(/\.(m?)js$/, '.$1ts'), `${path}.ts`, join(path, 'index.ts')];
  return candidates.find((p) => existsSync(p) && statSync(p).isFile());
}

/** Tarjan's strongly connected components: each component of more than one file is a circle. */
function circles(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

const workspaces = rootPkg.workspaces.flatMap((pattern) => {
  if (!pattern.endsWith('/*')) return [pattern];
  const base = pattern.slice(0, -2);
  return existsSync(join(root, base)) ? readdirSync(join(root, base)).map((n) => `${base}/${n}`) : [];
});

/**
 * The folder graph of one app's src/: an edge from a top-level folder to another when a file of the
 * first imports a file of the second, directly or through files that sit in src/ itself (deps.ts,
 * errors.ts, config.ts: a file at the top links what imports it to what it imports). Each edge keeps
 * one import that makes it, for the report.
 */
function folderGraph(src, graph) {
  const folderOf = (file) => {
    const parts = relative(src, file).split('/');
    return parts.length > 1 && parts[0] !== '..' ? parts[0] : undefined;
  };
  // The folders a top-level file leads to through other top-level files, each with the imports that lead there.
  const reach = (file, seen = new Set([file])) => {
    const found = new Map();
    for (const to of graph.get(file) ?? []) {
      const folder = folderOf(to);
      if (folder) {
        if (!found.has(folder)) found.set(folder, `${file} → ${to}`);
      } else if (!seen.has(to)) {
        seen.add(to);
        for (const [f, via] of reach(to, seen)) if (!found.has(f)) found.set(f, `${file} → ${via}`);
      }
    }
    return found;
  };
  const folders = new Map();
  const why = new Map();
  for (const [file, edges] of graph) {
    const from = folderOf(file);
    if (!from) continue;
    if (!folders.has(from)) folders.set(from, new Set());
    for (const to of edges) {
      const direct = folderOf(to);
      const targets = direct ? new Map([[direct, `${file} → ${to}`]]) : new Map([...reach(to)].map(([f, via]) => [f, `${file} → ${via}`]));
      for (const [folder, via] of targets) {
        if (folder === from) continue;
        folders.get(from).add(folder);
        if (!why.has(`${from}\0${folder}`)) why.set(`${from}\0${folder}`, via);
      }
    }
  }
  return { folders, why };
}

/** The room of src/ a file is in: its top-level folder, or the file itself at the top; none outside src/. */
function roomOf(src, file) {
  const parts = relative(src, file).split('/');
  return parts[0] === '..' ? undefined : parts[0];
}
const shown = (src, room) => (statSync(join(src, room)).isDirectory() ? `${room}/` : room);

/**
 * Every room of an app's src/ has one place in its declared layers, and every import points within
 * its layer or down: each one that points up is named with its file, line and the two layers.
 */
function orderProblems(ws, src, sites, layers) {
  const out = [];
  const place = new Map();
  layers.forEach((layer, i) => {
    for (const room of layer.rooms) {
      if (place.has(room)) out.push(`${ws}: ${ORDER_FILE} places src/${room} in two layers`);
      place.set(room, i);
    }
  });
  const rooms = readdirSync(src).filter((name) =>
    statSync(join(src, name)).isDirectory() ? !SKIPPED.includes(name) : SOURCE.test(name) && !name.endsWith('.d.ts'),
  );
  for (const room of rooms) if (!place.has(room)) out.push(`${ws}: src/${shown(src, room)} has no place in ${ORDER_FILE}: add it to a layer of ${ws}`);
  for (const room of place.keys()) if (!rooms.includes(room)) out.push(`${ws}: ${ORDER_FILE} places src/${room}, which ${ws} does not have`);
  const named = (room) => `src/${shown(src, room)} (layer ${place.get(room) + 1} of ${layers.length}, ${layers[place.get(room)].layer})`;
  for (const [file, imports] of sites) {
    const from = roomOf(src, file);
    for (const { to, spec, line } of imports) {
      const room = roomOf(src, to);
      if (!place.has(from) || !place.has(room) || place.get(room) <= place.get(from)) continue;
      out.push(
        `${ws}/${relative(join(src, '..'), file)}:${line}: imports '${spec}' from ${named(from)} up to ${named(room)}: imports run down the declared order (${ORDER_FILE})`,
      );
    }
  }
  return out;
}

const problems = [];
for (const ws of workspaces) {
  const src = join(root, ws, 'src');
  if (!existsSync(src)) continue;
  const graph = new Map();
  // Each relative import with its line, for the report of the declared order.
  const sites = new Map();
  for (const file of files(src)) {
    const edges = new Set();
    const imports = [];
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2];
      const to = target(file, spec);
      if (!to) continue;
      edges.add(to);
      imports.push({ to, spec, line: text.slice(0, m.index + m[0].lastIndexOf(spec)).split('\n').length });
    }
    graph.set(file, edges);
    sites.set(file, imports);
  }
  for (const circle of circles(graph)) problems.push(`${ws}: import circle between ${circle.map((f) => relative(join(root, ws), f)).join(', ')}`);
  if (ORDER[ws]) problems.push(...orderProblems(ws, src, sites, ORDER[ws]));
  if (!ONE_WAY_APPS.includes(ws)) continue;
  const { folders, why } = folderGraph(src, graph);
  const at = (path) => relative(join(root, ws), path);
  for (const circle of circles(folders)) {
    const imports = circle.flatMap((from) => circle.filter((to) => why.has(`${from}\0${to}`)).map((to) => why.get(`${from}\0${to}`)));
    problems.push(
      `${ws}: folder circle between ${circle.map((f) => `src/${f}/`).join(', ')} (${imports.map((i) => i.split(' → ').map(at).join(' → ')).join('; ')})`,
    );
  }
}

for (const p of problems) console.error(p);
process.exit(problems.length ? 1 : 0);
