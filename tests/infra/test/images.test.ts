import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createApiKey, createOrg, createUser } from '@svc/admin';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';
import { cleanEnv, freePort, repoRoot, run, SERVICES, testDatabaseUrl, testDb, uniqueEmail, waitFor, type Service } from '@svc/testkit';
import { read } from './manifests.js';

const PORTS: Record<Service, string> = { 'identity-provider': '4000', 'wallet-verify': '4001', 'credential-issuer': '4002' };

function dockerfile(service: Service) {
  const instructions = DockerfileParser.parse(read(`infra/${service}.Dockerfile`)).getInstructions();
  // The last stage is the image that runs.
  const lastFrom = instructions.map((i) => i.getKeyword()).lastIndexOf('FROM');
  const final = instructions.slice(lastFrom);
  const one = (keyword: string) => final.filter((i) => i.getKeyword() === keyword);
  const json = (i: Instruction) =>
    JSON.parse(
      i
        .getArgumentsContent()!
        .replace(/^--[a-z-]+=\S+\s+/g, '')
        .replace(/\\\n\s*/g, '')
        .replace(/^CMD\s+/, ''),
    ) as string[];
  const env = Object.fromEntries(
    one('ENV').flatMap((i) =>
      i
        .getArgumentsContent()!
        .split(/\s+/)
        .map((kv) => kv.split('=') as [string, string]),
    ),
  );
  return { instructions, final, one, json, env };
}

/** The workspace packages `name` needs, following its package.json files (what the image may hold). */
function workspaceClosure(name: string): Set<string> {
  const byName = new Map<string, { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }>();
  for (const dir of ['apps', 'packages']) {
    for (const entry of readdirSync(`${repoRoot}${dir}`)) {
      const pkg = JSON.parse(readFileSync(`${repoRoot}${dir}/${entry}/package.json`, 'utf8'));
      byName.set(pkg.name, pkg);
    }
  }
  const seen = new Set<string>();
  const visit = (n: string) => {
    if (seen.has(n) || !byName.has(n)) return;
    seen.add(n);
    const pkg = byName.get(n)!;
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })) visit(dep);
  };
  visit(name);
  return seen;
}

const bundles = new Map<Service, string>();
const scratch = mkdtempSync(join(tmpdir(), 'bundles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** What the image's build stage leaves in /app: scripts/bundle.mjs's output, made once per file. */
function bundled(service: Service): string {
  if (!bundles.has(service)) {
    const out = join(scratch, service);
    execFileSync(process.execPath, [`${repoRoot}scripts/bundle.mjs`, service, out], { cwd: repoRoot, stdio: 'ignore' });
    bundles.set(service, out);
  }
  return bundles.get(service)!;
}

/** The bundled issuer signs in its worker threads and loads its JSON-LD contexts: one real issuance. */
async function issueOne(url: string) {
  const ctx = { db: testDb(), now: () => new Date() };
  try {
    const owner = await createUser(ctx, { email: uniqueEmail('bundle'), password: 'correct horse' });
    const org = await createOrg(ctx, { name: 'Bundle', ownerEmail: owner.email });
    const key = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue' });
    const post = (path: string, body: object) =>
      fetch(`${url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': key.key }, body: JSON.stringify(body) });
    const issued = await post('/credentials/issue', { subject_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', claims: { kyc_passed: true } });
    expect(issued.status).toBe(200);
    const { credential } = (await issued.json()) as { credential: object };
    expect(await (await post('/credentials/verify', { credential })).json()).toMatchObject({ verified: true });
  } finally {
    await ctx.db.$disconnect();
  }
}

describe.each(SERVICES)('the %s image', (service) => {
  const { final, one, json, env } = dockerfile(service);

  it('runs its own server as the unprivileged node user, with a health check', () => {
    expect(one('USER').map((i) => i.getArgumentsContent())).toEqual(['node']);
    expect(json(one('CMD')[0]!)).toEqual(['node', `apps/${service}/dist/server.js`]);
    expect(env).toMatchObject({ NODE_ENV: 'production', PORT: PORTS[service] });
    expect(one('EXPOSE').map((i) => i.getArgumentsContent())).toEqual([PORTS[service]]);
    expect(one('HEALTHCHECK')).toHaveLength(1);
    // No stage's files are writable by the service: nothing is copied with --chown.
    expect(final.filter((i) => i.getKeyword() === 'COPY' && /--chown/.test(i.getArgumentsContent()!))).toEqual([]);
  });

  it('is the same recipe as the other two, but for its name and port (no drift)', () => {
    const normalized = (s: Service) => read(`infra/${s}.Dockerfile`).replaceAll(s, 'SERVICE').replaceAll(PORTS[s], 'PORT');
    for (const other of SERVICES) expect(normalized(other)).toBe(normalized(service));
  });

  it('holds only its own workspace packages (turbo prune)', () => {
    const out = mkdtempSync(join(tmpdir(), 'prune-'));
    try {
      execFileSync(`${repoRoot}node_modules/.bin/turbo`, ['prune', `@svc/${service}`, '--docker', '--out-dir', out], { cwd: repoRoot, stdio: 'ignore' });
      const pruned = [
        ...readdirSync(join(out, 'json/apps')).map((a) => `apps/${a}`),
        ...readdirSync(join(out, 'json/packages')).map((p) => `packages/${p}`),
      ].map((dir) => JSON.parse(readFileSync(join(out, 'json', dir, 'package.json'), 'utf8')).name as string);
      expect(new Set(pruned)).toEqual(workspaceClosure(`@svc/${service}`));
      expect(pruned.filter((n) => SERVICES.some((s) => n === `@svc/${s}`))).toEqual([`@svc/${service}`]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('starts with its CMD and is healthy by its HEALTHCHECK, from the bundle the image copies and no node_modules', async () => {
    // Outside the repository, so nothing can be resolved from a node_modules above it.
    const app = bundled(service);
    expect(readdirSync(app).sort()).toEqual(service === 'identity-provider' ? ['apps', 'package.json', 'packages'] : ['apps', 'package.json']);
    const port = await freePort();
    const serviceEnv = cleanEnv({
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATABASE_URL: testDatabaseUrl(),
      IDP_SECRET: 'image-test-secret-0123456789abcdefgh',
    });
    const [command, ...args] = json(one('CMD')[0]!);
    const server = run(command === 'node' ? process.execPath : command!, args, serviceEnv, false, app);
    try {
      await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/ready`).then(
            (r) => r.ok,
            () => false,
          ),
        30_000,
        `${service} ready`,
        server.output,
      );
      const check = one('HEALTHCHECK')[0]!
        .getArgumentsContent()!
        .replace(/^(--\S+\s+)+/, '')
        .replace(/\\\n\s*/g, '')
        .replace(/^CMD\s+/, '');
      const [hcCommand, ...hcArgs] = JSON.parse(check) as string[];
      const probe = run(hcCommand === 'node' ? process.execPath : hcCommand!, hcArgs, serviceEnv, false, app);
      expect(await probe.exited).toBe(0);
      if (service === 'credential-issuer') await issueOne(`http://127.0.0.1:${port}`);
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });
});

describe("the migration step every deployment runs first (the identity provider image's second command)", () => {
  it('applies migrations idempotently and names a bad DATABASE_URL', async () => {
    const script = join(bundled('identity-provider'), 'packages/db/dist/migrate-cli.js');
    const first = run(process.execPath, [script], { ...process.env, DATABASE_URL: testDatabaseUrl() });
    expect(await first.exited).toBe(0);
    expect(JSON.parse(first.output())).toEqual({
      applied: [],
      already_applied: readdirSync(`${repoRoot}packages/db/prisma/migrations`, { withFileTypes: true }).filter((d) => d.isDirectory()).length,
    });
    const bad = run(process.execPath, [script], { ...process.env, DATABASE_URL: 'mysql://nope' });
    expect(await bad.exited).toBe(1);
    expect(bad.output()).toBe('Invalid configuration: DATABASE_URL: must be a postgres or postgresql URL\n');
  });
});
