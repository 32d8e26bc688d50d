// The admin CLI run in-process against the test database: what every CLI test file drives it with.
import { afterAll, beforeAll, expect } from '@jest/globals';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail } from '@svc/testkit';
import { runCli } from '../src/index.js';

export let db: Db;
beforeAll(() => {
  db = testDb();
});
afterAll(async () => {
  await db.$disconnect();
});

export interface Run {
  code: number;
  out: string;
  err: string;
  json: any;
}

export async function cli(...argv: string[]): Promise<Run> {
  return cliWith({}, ...argv);
}

export async function cliWith(io: { stdin?: string; env?: NodeJS.ProcessEnv }, ...argv: string[]): Promise<Run> {
  let out = '';
  let err = '';
  let connected = false;
  const code = await runCli(
    argv,
    async () => {
      connected = true;
      return { db, now: () => new Date(), close: async () => undefined };
    },
    { stdout: (t) => (out += t), stderr: (t) => (err += t), stdin: async () => io.stdin ?? '', env: io.env ?? {} },
  );
  if (code === 2) expect(connected).toBe(false);
  // Help is text; every other answer is one JSON object.
  const help = argv.includes('--help');
  if (help) expect(connected).toBe(false);
  return { code, out, err, json: out && !help ? JSON.parse(out) : undefined };
}

/** A failure: non-zero, one line on stderr, nothing on stdout. */
export function expectRefused(run: Run, pattern: RegExp) {
  expect(run.code).not.toBe(0);
  expect(run.out).toBe('');
  expect(run.err.trimEnd().split('\n')).toHaveLength(1);
  expect(run.err).toMatch(pattern);
}

export const WALLET = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export async function newUser(extra: string[] = []) {
  const email = uniqueEmail();
  const run = await cli('user:create', '--email', email, '--password', 'correct horse', ...extra);
  expect(run.code).toBe(0);
  return run.json as { id: string; email: string; service_id: string };
}

export async function newOrg() {
  const owner = await newUser();
  const run = await cli('org:create', '--name', 'Acme', '--owner-email', owner.email);
  expect(run.code).toBe(0);
  return { org: run.json as { id: string; name: string; owner_user_id: string }, owner };
}
