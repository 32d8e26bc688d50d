import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { uniqueEmail } from '@svc/testkit';
import { cliWith, db } from './cli-harness.js';

// The binary itself, and secrets that never pass through the command line.
describe('the svc-admin binary', () => {
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const run = promisify(execFile);

  it('prints one JSON object and exits 0', async () => {
    const email = uniqueEmail();
    const { stdout } = await run(process.execPath, [bin, 'user:create', '--email', email, '--password', 'correct horse'], { env: { ...process.env } });
    expect(JSON.parse(stdout)).toMatchObject({ email });
  });

  it('prints one line on stderr and exits non-zero on failure', async () => {
    const failure = await run(process.execPath, [bin, 'org:create', '--name', 'X', '--owner-email', 'ghost@test.example'], { env: { ...process.env } }).catch(
      (e) => e,
    );
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toBe('error: org:create: no user with email ghost@test.example\n');
  });
});

describe('npm run --silent admin (scripts/admin.mjs)', () => {
  const repo = fileURLToPath(new URL('../../../', import.meta.url));
  const run = promisify(execFile);

  // The first call may build (turbo, under the load of the other suites): a bound, not a measurement.
  it('prints pure JSON on stdout, builds at most once, then runs the CLI directly', async () => {
    const first = await run('npm', ['run', '--silent', 'admin', '--', 'user:list', '--limit', '1'], { cwd: repo, env: { ...process.env } });
    // A build, if one was needed, reports on stderr only.
    expect(JSON.parse(first.stdout)).toEqual({ users: expect.any(Array) });
    const second = await run(process.execPath, ['scripts/admin.mjs', 'org:list', '--limit', '1'], { cwd: repo, env: { ...process.env } });
    expect(JSON.parse(second.stdout)).toEqual({ organizations: expect.any(Array) });
    expect(second.stderr).toBe('');
  }, 90_000);
});

describe('secrets without the command line (finding 16)', () => {
  it('takes the password from standard input or SVC_ADMIN_PASSWORD, and the user can sign in with it', async () => {
    const { verifyPassword } = await import('@svc/secrets');
    const fromStdin = await cliWith({ stdin: 'stdin secret words\n' }, 'user:create', '--email', `stdin-${Date.now()}@test.example`, '--password-stdin');
    expect(fromStdin.code).toBe(0);
    const row = await db.user.findUniqueOrThrow({ where: { id: fromStdin.json.id } });
    expect(await verifyPassword('stdin secret words', row.passwordHash)).toBe(true);
    const fromEnv = await cliWith({ env: { SVC_ADMIN_PASSWORD: 'env secret words' } }, 'user:create', '--email', `env-${Date.now()}@test.example`);
    expect(fromEnv.code).toBe(0);
    expect(await verifyPassword('env secret words', (await db.user.findUniqueOrThrow({ where: { id: fromEnv.json.id } })).passwordHash)).toBe(true);
    const neither = await cliWith({}, 'user:create', '--email', `none-${Date.now()}@test.example`);
    expect(neither.code).toBe(2);
    expect(neither.err).toMatch(/missing --password/);
  });
});
