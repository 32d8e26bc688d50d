import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DEMO_REDIRECT_URI, seedDemo, type DemoData } from '@svc/admin';
import { CREDENTIAL_ISSUER_API } from '@svc/credential-issuer/openapi';
import type { Db } from '@svc/db';
import { curlCommand, PLATFORM_OPERATIONS, type OperationSpec } from '@svc/http';
import { IDENTITY_PROVIDER_API } from '@svc/identity-provider/openapi';
import { authorizeThroughApi } from '@svc/testkit/oauth-flow';
import { freePort, repoRoot, startService, testDatabaseUrl, testDb, testRedisUrl, uniqueNamespace, type StartedService } from '@svc/testkit';
import { WALLET_VERIFY_API } from '@svc/wallet-verify/openapi';

// Every curl command in the guides, run as printed against the three services holding the demo
// data `npm start` seeds, with the demo file where the guides read it. Each command gets fresh
// values for the variables it names (a code, a token, a pending authorization).
jest.setTimeout(120_000);

const GUIDES = [
  { service: 'identity-provider', operations: IDENTITY_PROVIDER_API.operations, documented: 'http://localhost:4000' },
  { service: 'wallet-verify', operations: WALLET_VERIFY_API.operations, documented: 'http://localhost:4001' },
  { service: 'credential-issuer', operations: CREDENTIAL_ISSUER_API.operations, documented: 'http://localhost:4002' },
] as const;
const ALICE_WALLET = '0x52908400098527886E0F7030069857D2E4169EE7';
const SCOPE = 'openid identity:read kyc:read';

let db: Db;
let demo: DemoData;
let scratch: string;
const services = new Map<string, StartedService>();

beforeAll(async () => {
  db = testDb();
  demo = await seedDemo({ db, now: () => new Date() });
  scratch = mkdtempSync(join(tmpdir(), 'svc-examples-'));
  mkdirSync(join(scratch, '.data'));
  writeFileSync(join(scratch, '.data', 'demo.json'), JSON.stringify(demo));
  const shared = { DATABASE_URL: testDatabaseUrl(), ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), REDIS_KEY_PREFIX: uniqueNamespace('examples') };
  await Promise.all(
    GUIDES.map(async ({ service }) => {
      const port = await freePort();
      const own =
        service === 'identity-provider'
          ? { IDP_SECRET: randomBytes(32).toString('base64url') }
          : service === 'credential-issuer'
            ? { SIGNING_WORKERS: '1' }
            : {};
      services.set(service, await startService(service, { ...shared, ...own, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }));
    }),
  );
  // The user-token example names a user who has already authorized the client.
  await tokens();
}, 90_000);
afterAll(async () => {
  await Promise.all([...services.values()].map((s) => s.stop()));
  await db?.$disconnect();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const url = (service: string) => services.get(service)!.url;
const client = () => ({ clientId: demo.clients.confidential.client_id, clientSecret: demo.clients.confidential.client_secret, redirectUri: DEMO_REDIRECT_URI });
const alice = () => ({ email: demo.users.palm_verified.email, password: demo.users.palm_verified.password });

async function json(path: string, init: RequestInit = {}, service = 'identity-provider'): Promise<Record<string, unknown>> {
  const res = await fetch(`${url(service)}${path}`, init);
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

const tokens = async () => (await authorizeThroughApi(url('identity-provider'), alice(), client(), SCOPE))[0]!;
const session = async (email: string) =>
  String(
    (
      await json('/auth/session', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: alice().password }),
      })
    ).session_token,
  );
function pkce() {
  const verifier = randomBytes(32).toString('hex');
  return { CODE_VERIFIER: verifier, CODE_CHALLENGE: createHash('sha256').update(verifier).digest('base64url') };
}
async function pendingAuthorization(challenge: string) {
  const query = new URLSearchParams({
    client_id: client().clientId,
    redirect_uri: DEMO_REDIRECT_URI,
    response_type: 'code',
    scope: SCOPE,
    state: 'examples',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return String((await json(`/oauth/authorize?${query}`, { headers: { accept: 'application/json' } })).authorization_id);
}
async function issue(body: unknown) {
  return json(
    '/credentials/issue',
    { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-token': demo.api_keys.credential_issuer.key }, body: JSON.stringify(body) },
    'credential-issuer',
  );
}

/** Fresh values for the variables a command names: each request that spends one gets its own. */
async function freshEnv(names: Set<string>): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    CLIENT_ID: client().clientId,
    CLIENT_SECRET: client().clientSecret!,
    PASSWORD: alice().password,
    API_KEY: demo.api_keys.wallet_verify.key,
    API_TOKEN: demo.api_keys.credential_issuer.key,
    CSRF_TOKEN: randomBytes(16).toString('hex'),
    ...pkce(),
  };
  if (names.has('SESSION_TOKEN') || names.has('CODE') || names.has('CONSENT_CSRF_TOKEN')) env.SESSION_TOKEN = await session(alice().email);
  if (names.has('DEVELOPER_SESSION_TOKEN')) env.DEVELOPER_SESSION_TOKEN = await session(demo.users.developer.email);
  if (names.has('AUTHORIZATION_ID') || names.has('CODE') || names.has('CONSENT_CSRF_TOKEN'))
    env.AUTHORIZATION_ID = await pendingAuthorization(env.CODE_CHALLENGE!);
  if (names.has('CONSENT_CSRF_TOKEN')) {
    const page = await fetch(`${url('identity-provider')}/consent?authorization_id=${env.AUTHORIZATION_ID}`, {
      headers: { cookie: `svc_session=${env.SESSION_TOKEN}` },
    });
    env.CONSENT_CSRF_TOKEN = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
  }
  if (names.has('CODE')) {
    const approved = await json('/oauth/authorize/approve', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${env.SESSION_TOKEN}` },
      body: JSON.stringify({ authorization_id: env.AUTHORIZATION_ID }),
    });
    env.CODE = String(approved.code);
  }
  if (names.has('ACCESS_TOKEN') || names.has('REFRESH_TOKEN')) {
    const t = await tokens();
    Object.assign(env, { ACCESS_TOKEN: String(t.access_token), REFRESH_TOKEN: String(t.refresh_token) });
  }
  if (['ISSUER_DID', 'CREDENTIAL', 'CREDENTIAL_ID', 'STATUS_LIST_ID'].some((n) => names.has(n))) {
    env.ISSUER_DID = String(((await issue({ subject_address: ALICE_WALLET, claims: { kyc_passed: true } })).credential as { issuer: string }).issuer);
    const credential = (
      await issue({
        credential: {
          '@context': ['https://www.w3.org/ns/credentials/v2', { level: 'https://example.org/vocab#level' }],
          type: ['VerifiableCredential'],
          issuer: env.ISSUER_DID,
          credentialSubject: { id: `did:ethr:${ALICE_WALLET}`, level: 'gold' },
        },
        options: { credentialStatus: { type: 'BitstringStatusListEntry' } },
      })
    ).verifiableCredential as { id: string; credentialStatus: { statusListCredential?: string }[] };
    env.CREDENTIAL = JSON.stringify(credential);
    env.CREDENTIAL_ID = credential.id;
    env.STATUS_LIST_ID = [credential.credentialStatus]
      .flat()
      .find((s) => s.statusListCredential)!
      .statusListCredential!.split('/')
      .pop()!;
  }
  return env;
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  statuses: number[];
}

/**
 * Runs a guide's shell block as printed, with bash, in a directory holding the demo file, the
 * documented URLs pointing at this run's services. curl reports each answer's status on stderr.
 */
async function runBlock(block: string, env: Record<string, string>): Promise<Ran> {
  let script = block;
  for (const { service, documented } of GUIDES) script = script.replaceAll(documented, url(service));
  const prelude = `set -eo pipefail\ncurl() { command curl --silent --show-error --write-out '%{stderr}HTTP_STATUS %{http_code}\\n' "$@"; }\n`;
  const child = spawn('bash', ['-c', prelude + script], { cwd: scratch, env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const statuses = [...stderr.matchAll(/^HTTP_STATUS (\d+)$/gm)].map((m) => Number(m[1]));
  return { code, stdout, stderr: stderr.replace(/^HTTP_STATUS \d+\n/gm, ''), statuses };
}

const variables = (text: string) => new Set([...text.matchAll(/\$\{?([A-Z][A-Z_]+)/g)].map((m) => m[1]!));
const shellBlocks = (markdown: string) => [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

describe.each(GUIDES)('docs/$service.md', ({ service, operations, documented }) => {
  const guide = readFileSync(`${repoRoot}docs/${service}.md`, 'utf8');
  const all: OperationSpec[] = [...operations, ...PLATFORM_OPERATIONS];
  const examples = all.flatMap((op) => (op.examples ?? []).map((example) => ({ op, example, command: curlCommand(op.method, op.path, example, documented) })));

  it('has an example for every operation, printed in the guide as generated (node scripts/docs-examples.mjs)', () => {
    expect(all.filter((op) => !op.examples?.length).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    const blocks = shellBlocks(guide);
    expect(examples.filter(({ command }) => !blocks.includes(`${command}\n`)).map(({ command }) => command)).toEqual([]);
  });

  it.each(examples.map((e) => [`${e.op.method.toUpperCase()} ${e.op.path}: ${e.example.summary}`, e] as const))('%s', async (_name, { command, example }) => {
    const ran = await runBlock(command, await freshEnv(variables(command)));
    expect({ code: ran.code, statuses: ran.statuses, stderr: ran.stderr }).toEqual({ code: 0, statuses: [example.status], stderr: '' });
    if (example.status !== 204 && example.status !== 303) expect(ran.stdout.length).toBeGreaterThan(0);
  });

  it('sets up every variable its examples name, and its other commands succeed as printed', async () => {
    const generated = new Set(examples.map(({ command }) => `${command}\n`));
    const others = shellBlocks(guide).filter((b) => !generated.has(b) && /\bcurl\b|\.data\/demo\.json/.test(b));
    expect(others.length).toBeGreaterThan(0);
    const needed = new Set(examples.flatMap(({ command }) => [...variables(command)]));
    const exported = new Set<string>();
    for (const block of others) {
      const names = [...block.matchAll(/^export ([A-Z_]+)=/gm)].map((m) => m[1]!);
      const dump = names.map((n) => `printf '%s=%s\\n' ${n} "$${n}"`).join('\n');
      const ran = await runBlock(`${block}\necho __VARIABLES__\n${dump}\n`, await freshEnv(new Set([...variables(block)].filter((n) => !names.includes(n)))));
      expect({ block, code: ran.code, stderr: ran.stderr, failed: ran.statuses.filter((s) => s >= 400) }).toEqual({ block, code: 0, stderr: '', failed: [] });
      const values = Object.fromEntries(
        ran.stdout
          .split('__VARIABLES__\n')[1]!
          .trim()
          .split('\n')
          .filter(Boolean)
          .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
      );
      for (const n of names) {
        expect({ [n]: values[n] }).toEqual({ [n]: expect.stringMatching(/^(?!null$)./) });
        exported.add(n);
      }
    }
    expect([...needed].filter((n) => !exported.has(n))).toEqual([]);
  });
});

it('README and the guides hold no other curl commands than those run here', () => {
  const files = [
    'README.md',
    ...readdirSync(`${repoRoot}docs`)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const guides = new Set(GUIDES.map((g) => `docs/${g.service}.md`));
  const elsewhere = files.filter((f) => !guides.has(f) && shellBlocks(readFileSync(`${repoRoot}${f}`, 'utf8')).some((b) => /\bcurl\b/.test(b)));
  expect(elsewhere).toEqual([]);
});
