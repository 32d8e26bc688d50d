import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { seedDemo, type DemoData } from '@svc/admin';
import type { Db } from '@svc/db';
import { freePort, repoRoot, startService, testDatabaseUrl, testDb, testRedisUrl, uniqueNamespace, type StartedService } from '@svc/testkit';
import { transform } from 'esbuild';

// The README's examples, verbatim and in order, as one program in scratch projects made as the
// README says (`npm init -y`, once with `npm pkg set type=module`, once left CommonJS) outside the
// monorepo, that installed the packed SDK: type-checked strictly against the tarball's own
// declarations, then run against the three services holding `npm start`'s demo data, which they
// find through SVC_DEMO_FILE. The test plays the browser the program asks the user to be.
jest.setTimeout(180_000);

const exec = promisify(execFile);
let db: Db;
let demo: DemoData;
let scratch: string;
let demoFile: string;
const project = { esm: '', cjs: '' };
const services: Record<string, StartedService> = {};

/** A scratch project made exactly as the README's set-up block makes one, with the tarball installed. */
/**
 * A project as the README makes one: the tarball packed into its vendor/ folder and installed from
 * there, so its package.json names a file inside the project, not a temporary path.
 */
async function makeProject(name: string, esm: boolean): Promise<string> {
  const dir = join(scratch, name);
  mkdirSync(join(dir, 'vendor'), { recursive: true });
  const tarball = execFileSync(process.execPath, [`${repoRoot}packages/sdk/scripts/pack.mjs`, '--out', join(dir, 'vendor')], { encoding: 'utf8' }).trim();
  const npm = (...args: string[]) => exec('npm', [...args, '--loglevel=error'], { cwd: dir });
  await npm('init', '-y');
  if (esm) await npm('pkg', 'set', 'type=module');
  await npm('install', `./vendor/${basename(tarball)}`, '--offline', '--no-audit', '--no-fund', '--ignore-scripts');
  return dir;
}

beforeAll(async () => {
  db = testDb();
  demo = await seedDemo({ db, now: () => new Date() });
  const shared = { DATABASE_URL: testDatabaseUrl(), ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), REDIS_KEY_PREFIX: uniqueNamespace('readme') };
  const idpPort = await freePort();
  [services.idp, services.verify, services.issuer] = await Promise.all([
    startService('identity-provider', {
      ...shared,
      PORT: String(idpPort),
      PUBLIC_URL: `http://127.0.0.1:${idpPort}`,
      IDP_SECRET: randomBytes(32).toString('base64url'),
    }),
    startService('wallet-verify', shared),
    startService('credential-issuer', { ...shared, SIGNING_WORKERS: '1' }),
  ]);
  scratch = mkdtempSync(join(tmpdir(), 'svc-sdk-user-'));
  // npm start's demo secrets, somewhere neither project is.
  mkdirSync(join(scratch, 'monorepo-data'));
  demoFile = join(scratch, 'monorepo-data', 'demo.json');
  writeFileSync(demoFile, JSON.stringify(demo));
  [project.esm, project.cjs] = await Promise.all([makeProject('esm-app', true), makeProject('cjs-app', false)]);
}, 120_000);
afterAll(async () => {
  await Promise.all(Object.values(services).map((s) => s.stop()));
  await db?.$disconnect();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** The README's code blocks in one language, in order, pointed at this run's services. */
function readmeBlocks(lang: 'ts' | 'js'): string[] {
  const readme = readFileSync(`${repoRoot}packages/sdk/README.md`, 'utf8');
  return [...readme.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) =>
    m[1]!
      .replaceAll('http://localhost:4000', services.idp!.url)
      .replaceAll('http://localhost:4001', services.verify!.url)
      .replaceAll('http://localhost:4002', services.issuer!.url),
  );
}

// After the README's revoke, its refresh token must be spent: tried from the same program.
const REPORT =
  "const spent = await idp.refresh(next.refresh_token!).then(() => 'accepted', (e: { error?: string }) => e.error);\n" +
  "console.log('\\nREPORT ' + JSON.stringify({ url, spent, nullifier, checked, me, over18, results, errors, answer, changes, is_human, rateLimit, verified, problems, verdict, revoked, asked, presentation, relayFromPage: typeof relayFromPage }));\n";

/** Type-checks files of a scratch project strictly, as an integrator's tsconfig would; '' when clean. */
function typecheck(dir: string, files: string[]): string {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        allowJs: true,
        checkJs: true,
        types: ['node'],
        typeRoots: [`${repoRoot}node_modules/@types`],
      },
      files,
    }),
  );
  try {
    return execFileSync(`${repoRoot}node_modules/.bin/tsc`, ['-p', dir], { encoding: 'utf8', stdio: 'pipe' });
  } catch (err) {
    return String((err as { stdout?: string }).stdout ?? err);
  }
}

/**
 * `node <file>` as the README says; a Node.js without type stripping (20, which the suite still
 * runs on) gets the same program with its types removed by esbuild instead.
 */
async function nodeArgs(dir: string, file: string): Promise<string[]> {
  if ((process.features as { typescript?: unknown }).typescript) return [file];
  const { code } = await transform(readFileSync(join(dir, file), 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
  writeFileSync(join(dir, 'app.mjs'), code);
  return ['app.mjs'];
}

/** What the user does in the browser: open the URL, sign in, approve; returns where the browser is sent back to. */
async function signInAndApprove(url: string): Promise<string> {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, string>;
  };
  const { session_token } = await post('/auth/session', { email: demo.users.palm_verified.email, password: demo.users.palm_verified.password });
  const { authorization_id } = (await (await fetch(url, { headers: { accept: 'application/json' } })).json()) as Record<string, string>;
  return (await post('/oauth/authorize/approve', { authorization_id }, { authorization: `Bearer ${session_token}` })).redirect_to!;
}

/** Runs the program as a user would at a terminal: answers its prompt with the callback URL, returns its report. */
async function runInteractively(dir: string, args: string[]): Promise<Record<string, any>> {
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, SVC_DEMO_FILE: demoFile }, stdio: 'pipe' });
  let out = '';
  let err = '';
  let answered = false;
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  child.stdout.on('data', (d) => {
    out += d;
    const asked = /^Open (\S+)$/m.exec(out);
    if (asked && !answered) {
      answered = true;
      signInAndApprove(asked[1]!).then(
        (callbackUrl) => child.stdin.end(`${callbackUrl}\n`),
        (e) => {
          err += String(e);
          child.kill();
        },
      );
    }
  });
  const code = await exited;
  const report = /^REPORT (.*)$/m.exec(out);
  if (code !== 0 || !report) throw new Error(`${args.join(' ')} exited ${code}:\n${out}\n${err}`);
  return JSON.parse(report[1]!);
}

function expectTheReadmeWorked(out: Record<string, any>): void {
  expect(new URL(out.url).searchParams.get('code_challenge_method')).toBe('S256');
  expect(out.me).toMatchObject({ sub: expect.any(String), scopes: expect.arrayContaining(['openid', 'identity:read', 'kyc:read']) });
  // Proved once for the demo user: the first run counted it, the second was refused with the same nullifier.
  expect(out.nullifier).toMatch(/^nul_[A-Za-z0-9_-]{43}$/);
  expect(out.checked).toEqual({ nullifier: out.nullifier, count: 1, proved_at: expect.any(String), signal_hash: expect.stringMatching(/^[0-9a-f]{64}$/) });
  expect(out.over18).toMatchObject({ preset: 'age_over_18', value: true, status: 'valid' });
  expect(out.results).toEqual([expect.objectContaining({ preset: 'nationality', status: 'valid' })]);
  expect(out.errors).toEqual([{ preset: 'date_of_birth', error: expect.objectContaining({ error_code: 'E4003' }) }]);
  expect(out.answer).toMatchObject({ type: 'predicate', passed: true });
  expect(out.changes.items.length).toBeGreaterThan(0);
  expect(out).toMatchObject({ is_human: true, verified: true, problems: [], verdict: { verified: true }, revoked: false });
  // Asked, and no wallet has answered yet; the relay is a function for a route the program has not.
  expect(out.asked).toMatchObject({ status: 'pending', request_link: expect.stringMatching(/^openid4vp:\/\//), dc_api: { protocol: 'openid4vp-v1-signed' } });
  expect(out.presentation).toEqual({ id: out.asked.id, status: 'pending', expires_at: out.asked.expires_at });
  expect(out.relayFromPage).toBe('function');
  expect(out.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number) });
  // The README's last identity step revoked the grant: the refresh token it names is spent.
  expect(out.spent).toBe('invalid_grant');
}

describe('packages/sdk/README.md, in projects that installed the packed SDK', () => {
  it('packs to a tarball that stands alone, which import and require load as one module', () => {
    const manifest = JSON.parse(readFileSync(join(project.cjs, 'node_modules/@svc/sdk/package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      name: '@svc/sdk',
      type: 'module',
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
      // The first Node.js whose require loads ES modules without a flag.
      engines: { node: '>=22.12' },
    });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    const declarations = readFileSync(join(project.cjs, 'node_modules/@svc/sdk/dist/identity.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/@svc\/|zod/);
    // `npm init -y` made a CommonJS project: require and import give the same classes.
    expect(JSON.parse(readFileSync(join(project.cjs, 'package.json'), 'utf8')).type ?? 'commonjs').toBe('commonjs');
    // What the project records is the tarball it keeps, never a temporary path outside it.
    for (const dir of [project.esm, project.cjs])
      expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).dependencies).toEqual({ '@svc/sdk': 'file:vendor/svc-sdk-0.1.0.tgz' });
    const same = execFileSync(
      process.execPath,
      ['-e', "const a = require('@svc/sdk'); import('@svc/sdk').then((b) => process.stdout.write(String(a.SvcApiError === b.SvcApiError)))"],
      { cwd: project.cjs, encoding: 'utf8' },
    );
    expect(same).toBe('true');
  });

  it('runs as app.ts in an ES module project, type-checked strictly against the tarball’s declarations', async () => {
    writeFileSync(join(project.esm, 'app.ts'), readmeBlocks('ts').join('\n') + REPORT);
    expect(typecheck(project.esm, ['app.ts'])).toBe('');
    expectTheReadmeWorked(await runInteractively(project.esm, await nodeArgs(project.esm, 'app.ts')));
  });

  it('runs as app.mts in a CommonJS project, and its require example as app.cjs', async () => {
    writeFileSync(join(project.cjs, 'app.mts'), readmeBlocks('ts').join('\n') + REPORT);
    const js = readmeBlocks('js');
    expect(js).toHaveLength(1);
    writeFileSync(join(project.cjs, 'app.cjs'), js[0]!);
    // What the README says TypeScript compiled to CommonJS writes.
    writeFileSync(
      join(project.cjs, 'compiled.cts'),
      "import { IdentityClient } from '@svc/sdk';\nexport const idp = new IdentityClient({ issuer: 'https://idp.example', clientId: 'c' });\n",
    );
    expect(typecheck(project.cjs, ['app.mts', 'app.cjs', 'compiled.cts'])).toBe('');
    expectTheReadmeWorked(await runInteractively(project.cjs, await nodeArgs(project.cjs, 'app.mts')));

    const changes = JSON.parse(
      execFileSync(process.execPath, ['app.cjs'], { cwd: project.cjs, env: { ...process.env, SVC_DEMO_FILE: demoFile }, encoding: 'utf8' }),
    );
    expect(changes.items).toEqual(expect.arrayContaining([expect.objectContaining({ authorization_id: expect.any(String), status: 'revoked' })]));
  });
});
