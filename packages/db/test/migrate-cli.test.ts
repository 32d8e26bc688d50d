import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';

// The compiled runner, as the images and the compose `migrate` step run it (built by `npm run build`).
const cli = fileURLToPath(new URL('../dist/migrate-cli.js', import.meta.url));
const server = process.env.SVC_TEST_SERVER_URL!;
const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-cli-'));
const created: string[] = [];

const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};

/** Runs the CLI with only `env` (and PATH): its exit code and output. */
function run(env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli], { env: { PATH: process.env.PATH ?? '', ...env } }, (err, stdout, stderr) =>
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function freshDatabase(): Promise<string> {
  const name = `migcli_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  created.push(name);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  for (const name of created) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

describe('migrate-cli settings from <NAME>_FILE', () => {
  it('migrates the database whose URL DATABASE_URL_FILE holds', async () => {
    const url = await freshDatabase();
    const result = await run({ DATABASE_URL: '', DATABASE_URL_FILE: file('url', `${url}\n`) });
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toMatchObject({ already_applied: 0 });
    expect(JSON.parse(result.stdout).applied.length).toBeGreaterThan(0);
  });

  it('lets DATABASE_URL set directly win over its file', async () => {
    const url = await freshDatabase();
    const result = await run({ DATABASE_URL: url, DATABASE_URL_FILE: file('bad-url', 'mysql://elsewhere\n') });
    expect(result).toMatchObject({ code: 0, stderr: '' });
  });

  it('stops before touching the database when a _FILE cannot be read, naming it', async () => {
    const missing = join(dir, 'missing');
    const result = await run({ DATABASE_URL: 'postgresql://127.0.0.1:1/none', WALLET_VERIFY_DB_PASSWORD_FILE: missing });
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: `Invalid configuration: WALLET_VERIFY_DB_PASSWORD_FILE: cannot read ${JSON.stringify(missing)} (ENOENT)\n`,
    });
  });

  it('counts a service password read from a file as given, and checks it like one set directly', async () => {
    const onlyOne = await run({ DATABASE_URL: 'postgresql://127.0.0.1:1/none', IDENTITY_PROVIDER_DB_PASSWORD_FILE: file('one', `${'a1'.repeat(12)}\n`) });
    expect(onlyOne.code).toBe(1);
    expect(onlyOne.stderr).toMatch(/^Invalid configuration: WALLET_VERIFY_DB_PASSWORD, CREDENTIAL_ISSUER_DB_PASSWORD: must be set with the other/);
    const unusable = await run({
      DATABASE_URL: 'postgresql://127.0.0.1:1/none',
      IDENTITY_PROVIDER_DB_PASSWORD: 'a1'.repeat(12),
      WALLET_VERIFY_DB_PASSWORD: 'b2'.repeat(12),
      CREDENTIAL_ISSUER_DB_PASSWORD_FILE: file('bad', 'has spaces and / slashes\n'),
    });
    expect(unusable.code).toBe(1);
    expect(unusable.stderr).toMatch(/^Invalid configuration: CREDENTIAL_ISSUER_DB_PASSWORD must be 16 to 200 letters/);
    expect(unusable.stderr).not.toContain('slashes');
  });
});
