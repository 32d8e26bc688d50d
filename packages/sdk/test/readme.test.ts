import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { seedDemo, type DemoData } from '@svc/admin';
import type { Db } from '@svc/db';
import { freePort, repoRoot, startService, testDatabaseUrl, testDb, testRedisUrl, uniqueNamespace, type StartedService } from '@svc/testkit';
import { transform } from 'esbuild';

// The README's examples, verbatim and in order, as one program in a scratch project that installed
// the packed SDK: type-checked strictly against the tarball's own declarations, then run against
// the three services holding `npm start`'s demo data, from a directory with its .data/demo.json.
jest.setTimeout(180_000);

let db: Db;
let demo: DemoData;
let scratch: string;
const services: Record<string, StartedService> = {};

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
  const tarball = execFileSync(process.execPath, [`${repoRoot}packages/sdk/scripts/pack.mjs`, '--out', scratch], { encoding: 'utf8' }).trim();
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'an-integrators-app', private: true, type: 'module' }));
  execFileSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error'], { cwd: scratch, stdio: 'pipe' });
  mkdirSync(join(scratch, '.data'));
  writeFileSync(join(scratch, '.data', 'demo.json'), JSON.stringify(demo));
}, 120_000);
afterAll(async () => {
  await Promise.all(Object.values(services).map((s) => s.stop()));
  await db?.$disconnect();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

/** What a browser and the user do between the README's two sign-in blocks: sign in, approve, follow the redirect. */
const SIGN_IN = `const callbackUrl = await (async () => {
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(\`\${path}: \${res.status} \${await res.text()}\`);
    return (await res.json()) as Record<string, string>;
  };
  const { session_token } = await post('/auth/session', { email: demo.users.palm_verified.email, password: demo.users.palm_verified.password });
  const { authorization_id } = (await (await fetch(url, { headers: { accept: 'application/json' } })).json()) as Record<string, string>;
  return (await post('/oauth/authorize/approve', { authorization_id }, { authorization: \`Bearer \${session_token}\` })).redirect_to!;
})();`;
// After the README's revoke, its refresh token must be spent: tried from the same program.
const REPORT =
  "const spent = await idp.refresh(next.refresh_token!).then(() => 'accepted', (e: { error?: string }) => e.error);\n" +
  'console.log(JSON.stringify({ url, spent, me, over18, results, errors, answer, changes, is_human, rateLimit, verified, problems, verdict, revoked }));';

function readmeProgram(): string {
  const readme = readFileSync(`${repoRoot}packages/sdk/README.md`, 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const program = blocks.map((block) => (block.includes('parseCallback(callbackUrl') ? `${SIGN_IN}\n${block}` : block)).join('\n') + REPORT;
  return program
    .replaceAll('http://localhost:4000', services.idp!.url)
    .replaceAll('http://localhost:4001', services.verify!.url)
    .replaceAll('http://localhost:4002', services.issuer!.url);
}

describe('packages/sdk/README.md, in a project that installed the packed SDK', () => {
  it('packs to a tarball that stands alone: JavaScript and declarations, no dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules/@svc/sdk/package.json'), 'utf8'));
    expect(manifest).toMatchObject({ name: '@svc/sdk', type: 'module', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } });
    expect(manifest.private).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    const declarations = readFileSync(join(scratch, 'node_modules/@svc/sdk/dist/identity.d.ts'), 'utf8');
    expect(declarations).not.toMatch(/@svc\/|zod/);
  });

  it('type-checks strictly against the tarball’s declarations, then runs against the demo data', async () => {
    const program = readmeProgram();
    writeFileSync(join(scratch, 'readme.ts'), program);
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noUncheckedIndexedAccess: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          types: ['node'],
          typeRoots: [`${repoRoot}node_modules/@types`],
        },
        files: ['readme.ts'],
      }),
    );
    const typecheck = (() => {
      try {
        return execFileSync(`${repoRoot}node_modules/.bin/tsc`, ['-p', scratch], { encoding: 'utf8', stdio: 'pipe' });
      } catch (err) {
        return String((err as { stdout?: string }).stdout ?? err);
      }
    })();
    expect(typecheck).toBe('');

    const { code } = await transform(program, { loader: 'ts', format: 'esm', target: 'node22' });
    writeFileSync(join(scratch, 'readme.mjs'), code);
    const out = JSON.parse(execFileSync(process.execPath, ['readme.mjs'], { cwd: scratch, encoding: 'utf8' }));
    expect(new URL(out.url).searchParams.get('code_challenge_method')).toBe('S256');
    expect(out.me).toMatchObject({ sub: expect.any(String), scopes: expect.arrayContaining(['openid', 'identity:read', 'kyc:read']) });
    expect(out.over18).toMatchObject({ preset: 'age_over_18', value: true, status: 'valid' });
    expect(out.results).toEqual([expect.objectContaining({ preset: 'nationality', status: 'valid' })]);
    expect(out.errors).toEqual([{ preset: 'date_of_birth', error: expect.objectContaining({ error_code: 'E4003' }) }]);
    expect(out.answer).toMatchObject({ type: 'predicate', passed: true });
    expect(out.changes.items.length).toBeGreaterThan(0);
    expect(out).toMatchObject({ is_human: true, verified: true, problems: [], verdict: { verified: true }, revoked: false });
    expect(out.rateLimit).toMatchObject({ limit: expect.any(Number), remaining: expect.any(Number) });
    // The README's last identity step revoked the grant: the refresh token it names is spent.
    expect(out.spent).toBe('invalid_grant');
  });
});
