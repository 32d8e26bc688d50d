import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

// The guide's throwaway wallet (scripts/wallet.mjs), as a person first meets it: asking for help,
// or mistyping an option.
const script = fileURLToPath(new URL('../../scripts/wallet.mjs', import.meta.url));
const wallet = (...args: string[]) => spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });

describe('scripts/wallet.mjs', () => {
  it('prints its usage for --help, on stdout, and succeeds', () => {
    for (const flag of ['--help', '-h']) {
      const run = wallet(flag);
      expect([run.status, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toMatch(/^usage:\n {2}wallet\.mjs proof --audience ISSUER_URL --nonce=C_NONCE .*\n {2}wallet\.mjs receive OFFER_LINK/);
    }
  });

  it('says what was wrong in whole sentences, then its usage, and fails', () => {
    const unknown = wallet('--bogus');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown option '--bogus'\.\nusage:/);
    const dashed = wallet('proof', '--audience', 'http://localhost:4002', '--nonce', '-abc');
    expect(dashed.stderr).toMatch(/^Option '--nonce' argument is ambiguous\. Give values with "=", as --nonce="\$C_NONCE"\.\nusage:/);
    expect(wallet().stderr).toMatch(/^Name a command\.\nusage:/);
    expect(wallet('proof').stderr).toMatch(/^proof needs --audience and --nonce\.\n/);
  });
});
