import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { ensureApprovalEventsEndpoint, seedDemo } from '@svc/admin';
import { CREDENTIAL_ISSUER_API } from '@svc/credential-issuer/openapi';
import type { Db } from '@svc/db';
import { curlCommand, exampleBlock, PLATFORM_OPERATIONS, type OperationExample, type OperationSpec } from '@svc/http';
import { guideOperations, IDENTITY_PROVIDER_API } from '@svc/identity-provider/openapi';
import {
  documentValidator,
  freePort,
  repoRoot,
  startService,
  testDatabaseUrl,
  testDb,
  testRedisUrl,
  testSandboxDatabaseUrl,
  uniqueNamespace,
  type StartedService,
} from '@svc/testkit';
import { loadConfig as loadWalletVerifyConfig } from '@svc/wallet-verify/config';
import { WALLET_VERIFY_API } from '@svc/wallet-verify/openapi';

// Each guide's "Every endpoint, by example" section, run as a reader runs it after `npm start`:
// every shell block in page order (the set-up block first), in ONE bash process, from a directory
// holding the demo file where the guides read it, against freshly started services holding freshly
// seeded demo data and their default limits. Nothing is prepared from here: whatever an example
// needs, the page gets it. Each example's request must answer its documented status.
jest.setTimeout(180_000);

// The identity provider has a guide per environment: production's, and the sandbox's (a second
// identity provider with SVC_ENVIRONMENT=sandbox on a database of its own, as npm start runs it).
const GUIDES = [
  {
    guide: 'identity-provider',
    service: 'identity-provider',
    operations: guideOperations('identity-provider'),
    documented: 'http://localhost:4000',
    platform: true,
  },
  { guide: 'sandbox', service: 'identity-provider', operations: guideOperations('sandbox'), documented: 'http://localhost:4005', platform: false },
  { guide: 'wallet-verify', service: 'wallet-verify', operations: WALLET_VERIFY_API.operations, documented: 'http://localhost:4001', platform: true },
  {
    guide: 'credential-issuer',
    service: 'credential-issuer',
    operations: CREDENTIAL_ISSUER_API.operations,
    documented: 'http://localhost:4002',
    platform: true,
  },
] as const;

let db: Db;
let scratch: string;
const services = new Map<string, StartedService>();

beforeAll(async () => {
  db = testDb();
  const demo = await seedDemo({ db, now: () => new Date() });
  scratch = mkdtempSync(join(tmpdir(), 'svc-examples-'));
  mkdirSync(join(scratch, '.data'));
  writeFileSync(join(scratch, '.data', 'demo.json'), JSON.stringify(demo));
  // The guides run from the project root: the holder's script is at apps/…/scripts/.
  symlinkSync(join(repoRoot, 'apps'), join(scratch, 'apps'));
  const shared = { DATABASE_URL: testDatabaseUrl(), ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}), REDIS_KEY_PREFIX: uniqueNamespace('examples') };
  const sandbox = { SVC_ENVIRONMENT: 'sandbox', DATABASE_URL: await testSandboxDatabaseUrl(), IDP_SECRET: randomBytes(32).toString('base64url') };
  const ports = new Map<string, number>();
  for (const { guide } of GUIDES) ports.set(guide, await freePort());
  const at = (guide: string) => `http://127.0.0.1:${ports.get(guide)}`;
  // As npm start wires them: the identity provider authorizes wallets for the credential issuer,
  // which introspects their tokens with the demo's client for it (the authorization code flow).
  const issuerClient = demo.clients.credential_issuer;
  const approvalEventsSecret = await ensureApprovalEventsEndpoint(
    { db, now: () => new Date() },
    { org: demo.organization.id, issuerUrl: at('credential-issuer') },
  );
  await Promise.all(
    GUIDES.map(async ({ guide, service }) => {
      const own =
        guide === 'sandbox'
          ? sandbox
          : service === 'identity-provider'
            ? {
                IDP_SECRET: randomBytes(32).toString('base64url'),
                CREDENTIAL_ISSUER_URL: at('credential-issuer'),
                CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id,
                WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
              }
            : service === 'credential-issuer'
              ? {
                  SIGNING_WORKERS: '1',
                  AUTHORIZATION_SERVER_URL: at('identity-provider'),
                  AUTHORIZATION_SERVER_CLIENT_ID: issuerClient.client_id,
                  AUTHORIZATION_SERVER_CLIENT_SECRET: issuerClient.client_secret!,
                  WALLET_ORGANIZATION_ID: demo.organization.id,
                  AUTHORIZATION_SERVER_WEBHOOK_SECRET: approvalEventsSecret,
                }
              : {};
      services.set(guide, await startService(service, { ...shared, ...own, PORT: String(ports.get(guide)), PUBLIC_URL: at(guide) }));
    }),
  );
}, 90_000);
afterAll(async () => {
  await Promise.all([...services.values()].map((s) => s.stop()));
  await db?.$disconnect();
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

const url = (guide: string) => services.get(guide)!.url;
const shellBlocks = (markdown: string) => [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
const variables = (text: string) => [...new Set([...text.matchAll(/\$\{?([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]!))];

/** The guide's "Every endpoint, by example" section: from its heading to the next one of its level. */
function examplesSection(guide: string): string {
  const start = guide.indexOf('\n## Every endpoint, by example\n');
  if (start < 0) throw new Error('the guide has no "Every endpoint, by example" section');
  const end = guide.indexOf('\n## ', start + 1);
  return guide.slice(start, end < 0 ? undefined : end);
}

interface BlockRun {
  block: string;
  code: number | null;
  statuses: number[];
  stdout: string;
  stderr: string;
  /** Variables the block names that are unset, empty or "null" once it has run. */
  unset: string[];
}

/**
 * Runs `blocks` one after another in one bash process, as printed (the documented URLs pointing at
 * this run's services), from the scratch directory. curl reports each answer's status on stderr;
 * a marker line between blocks tells whose output is whose.
 */
async function runInOneShell(blocks: string[]): Promise<BlockRun[]> {
  const point = (text: string) => GUIDES.reduce((t, { guide, documented }) => t.replaceAll(documented, url(guide)), text);
  const prelude = `set -o pipefail\ncurl() { command curl --silent --show-error --write-out '%{stderr}HTTP_STATUS %{http_code}\\n' "$@"; }\n`;
  const script = blocks
    .map((block, i) => {
      const check = variables(block)
        .map((v) => `{ [ -n "\${${v}:-}" ] && [ "\${${v}}" != null ]; } || echo "UNSET ${v}" >&2`)
        .join('\n');
      return `printf '\\n@@BLOCK ${i}\\n'; printf '\\n@@BLOCK ${i}\\n' >&2\n${point(block)}\necho "@@CODE $?" >&2\n${check}\n`;
    })
    .join('');
  const child = spawn('bash', ['-c', prelude + script], { cwd: scratch, env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  await new Promise((resolve) => child.on('close', resolve));
  const parts = (text: string) =>
    new Map(
      text
        .split('\n@@BLOCK ')
        .slice(1)
        .map((p) => [Number(p.slice(0, p.indexOf('\n'))), p.slice(p.indexOf('\n') + 1)]),
    );
  const outs = parts(stdout);
  const errs = parts(stderr);
  return blocks.map((block, i) => {
    const err = errs.get(i) ?? '';
    return {
      block,
      code: /^@@CODE (\d+)$/m.exec(err) ? Number(/^@@CODE (\d+)$/m.exec(err)![1]) : null,
      statuses: [...err.matchAll(/^HTTP_STATUS (\d+)$/gm)].map((m) => Number(m[1])),
      stdout: outs.get(i) ?? '',
      stderr: err.replace(/^(HTTP_STATUS \d+|@@CODE \d+|UNSET \w+)\n/gm, ''),
      unset: [...err.matchAll(/^UNSET (\w+)$/gm)].map((m) => m[1]!),
    };
  });
}

it('documents every operation of the identity provider in one of its two guides', () => {
  expect(IDENTITY_PROVIDER_API.operations.filter((op) => !op.examples?.length).map((op) => `${op.method} ${op.path}`)).toEqual([]);
});

describe.each(GUIDES)('docs/$guide.md', ({ guide: name, operations, documented, platform }) => {
  const guide = readFileSync(`${repoRoot}docs/${name}.md`, 'utf8');
  const section = examplesSection(guide);
  const all: OperationSpec[] = [...operations, ...(platform ? PLATFORM_OPERATIONS : [])];
  const examples = all.flatMap((op) =>
    (op.examples ?? []).map((example) => ({ op, example, block: `${exampleBlock(op.method, op.path, example, documented)}\n` })),
  );

  it('has an example for every operation, printed in its examples section as generated (node scripts/docs-examples.mjs)', () => {
    expect(all.filter((op) => !op.examples?.length).map((op) => `${op.method} ${op.path}`)).toEqual([]);
    const blocks = shellBlocks(section);
    expect(examples.filter(({ block }) => !blocks.includes(block)).map(({ block }) => block)).toEqual([]);
  });

  it('runs top to bottom in one shell: every block succeeds, and each example answers its documented status', async () => {
    const blocks = shellBlocks(section);
    // Then the guide's other commands (worked examples in its prose), with the variables the section set.
    const others = shellBlocks(guide.replace(section, '')).filter((b) => /\bcurl\b|\.data\/demo\.json/.test(b));
    const runs = await runInOneShell([...blocks, ...others]);
    const byBlock = new Map(examples.map((e) => [e.block, e.example]));
    const outcome = (run: BlockRun) => {
      const example: OperationExample | undefined = byBlock.get(run.block);
      // An example's own request is its block's last; what its set-up lines ask must succeed.
      const asked = example ? run.statuses.slice(0, -1) : run.statuses;
      return {
        block: run.block,
        code: run.code,
        stderr: run.stderr,
        unset: run.unset,
        failed: asked.filter((s) => s >= 400),
        ...(example ? { status: run.statuses.at(-1), printed: run.stdout.length > 0 || example.status === 204 || example.status === 303 } : {}),
      };
    };
    const expected = (run: BlockRun) => {
      const example = byBlock.get(run.block);
      return { block: run.block, code: 0, stderr: '', unset: [], failed: [], ...(example ? { status: example.status, printed: true } : {}) };
    };
    expect(runs.map(outcome)).toEqual(runs.map(expected));
    expect(runs.filter((r) => byBlock.has(r.block))).toHaveLength(examples.length);
  });

  it('serves its OpenAPI document with the public URL in every curl sample, and an answer example on every response it has examples of', async () => {
    const doc = (await (await fetch(`${url(name)}/openapi.json`)).json()) as {
      servers: { url: string }[];
      paths: Record<
        string,
        Record<string, { 'x-codeSamples'?: { source: string }[]; responses: Record<string, { content?: Record<string, { examples?: object }> }> }>
      >;
    };
    expect(doc.servers).toEqual([{ url: url(name) }]);
    const samples = Object.values(doc.paths).flatMap((methods) => Object.values(methods).flatMap((op) => (op['x-codeSamples'] ?? []).map((s) => s.source)));
    expect(samples.length).toBeGreaterThan(0);
    // Copied from /docs, each runs as it stands: `curl '/credentials/issue'` would not.
    expect(samples.filter((source) => /^curl (-X [A-Z]+ )?['"]\//.test(source))).toEqual([]);
    expect(samples.filter((source) => !/^curl (-X [A-Z]+ )?['"]([^'"]+)['"]/.exec(source)?.[2]?.startsWith(`${url(name)}/`))).toEqual([]);
    // Each answer example sits on its response's own media type and fits that response's schema
    // as the document states it (objects closed, as answers are checked), like a real answer.
    const fits = documentValidator(doc);
    const problems = all.flatMap((op) =>
      (op.examples ?? []).flatMap((e) => {
        if (e.response === undefined) return [];
        const where = `${op.method.toUpperCase()} ${op.path} "${e.summary}"`;
        const content = doc.paths[op.path]![op.method]!.responses[String(e.status)]!.content!;
        const [media, documented] = Object.entries(content)[0]!;
        if (!Object.values(documented.examples ?? {}).some((x) => JSON.stringify((x as { value: unknown }).value) === JSON.stringify(e.response)))
          return [`${where}: not among the ${media} examples`];
        const error = fits(['paths', op.path, op.method, 'responses', String(e.status), 'content', media, 'schema'], e.response);
        return error ? [`${where}: ${error}`] : [];
      }),
    );
    expect(problems).toEqual([]);
  });
});

describe('answer examples', () => {
  const all = [...GUIDES.flatMap((g) => g.operations), ...PLATFORM_OPERATIONS];

  it('every example of an answer with a body has one (204 and 303 have none), and its zod contract accepts each', () => {
    const unanswered = all.flatMap((op) =>
      (op.examples ?? [])
        .filter((e) => op.responses[e.status]?.schema && e.response === undefined)
        .map((e) => `${op.method.toUpperCase()} ${op.path} "${e.summary}"`),
    );
    expect(unanswered).toEqual([]);
    expect(all.filter((op) => !op.examples?.length)).toEqual([]);
    const problems = all.flatMap((op) =>
      (op.examples ?? []).flatMap((e) => {
        if (e.response === undefined) return [];
        const parsed = op.responses[e.status]!.schema!.safeParse(e.response);
        const where = `${op.method.toUpperCase()} ${op.path} "${e.summary}"`;
        return parsed.success ? [] : [`${where}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`];
      }),
    );
    expect(problems).toEqual([]);
  });

  it('wallet verify’s curl samples name its public URL, http://localhost:PORT unless PUBLIC_URL says otherwise', () => {
    const env = { DATABASE_URL: 'postgresql://localhost/x', PAIRWISE_SECRET: randomBytes(32).toString('base64') };
    expect(loadWalletVerifyConfig({ ...env, PORT: '4101' }).publicUrl).toBe('http://localhost:4101');
    expect(loadWalletVerifyConfig({ ...env, PUBLIC_URL: 'https://verify.example/' }).publicUrl).toBe('https://verify.example');
    expect(curlCommand('get', '/health', { summary: 'x', status: 200 }, 'https://verify.example')).toBe(`curl 'https://verify.example/health'`);
  });
});

describe('docs/webhooks.md', () => {
  it('receives a first webhook locally as "Receive your first webhook locally" shows: a signed webhook.test event', async () => {
    const guide = readFileSync(`${repoRoot}docs/webhooks.md`, 'utf8');
    const start = guide.indexOf('\n## Receive your first webhook locally\n');
    expect(start).toBeGreaterThan(0);
    const runs = await runInOneShell(shellBlocks(guide.slice(start, guide.indexOf('\n## ', start + 1))));
    expect(runs.map((r) => ({ code: r.code, stderr: r.stderr, unset: r.unset, failed: r.statuses.filter((s) => s >= 400) }))).toEqual(
      runs.map(() => ({ code: 0, stderr: '', unset: [], failed: [] })),
    );
    expect(runs.map((r) => r.stdout).join('')).toMatch(/^whsec_\S+$/m);
    const received = runs.at(-1)!.stdout;
    expect(received).toMatch(/^msg_\S+ v1,\S+$/m);
    expect(received).toMatch(/"type":\s*"webhook\.test"/);
  });
});

it('README and the guides hold no other curl commands than those run here', () => {
  const files = [
    'README.md',
    ...readdirSync(`${repoRoot}docs`)
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const guides = new Set([...GUIDES.map((g) => `docs/${g.guide}.md`), 'docs/webhooks.md']);
  const elsewhere = files.filter((f) => !guides.has(f) && shellBlocks(readFileSync(`${repoRoot}${f}`, 'utf8')).some((b) => /\bcurl\b/.test(b)));
  expect(elsewhere).toEqual([]);
});
