import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { baseServiceEnv, ConfigError, env, keyEncryptionEnv, keyEncryptionSettings, parseEnv, resolveFileEnv } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-env-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, content: string) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
};
const strong = () => randomBytes(36).toString('base64url');
const schema = z.object({ ...baseServiceEnv(4000), ...keyEncryptionEnv('IDP_SIGNING_KEY_KEK'), IDP_SECRET: env.strongSecret(32) });

function errorOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration from <NAME>_FILE (the Docker secrets convention)', () => {
  it('reads a variable that is unset or empty from the file its _FILE names, trimmed', () => {
    const [secret, kek] = [strong(), strong()];
    const config = parseEnv(schema, {
      DATABASE_URL_FILE: file('url', 'postgresql://svc_identity_provider:pw@postgres:5432/svc\n'),
      IDP_SECRET: '',
      IDP_SECRET_FILE: file('secret', `  ${secret}\n`),
      IDP_SIGNING_KEY_KEK_FILE: file('kek', kek),
    });
    expect(config.DATABASE_URL).toBe('postgresql://svc_identity_provider:pw@postgres:5432/svc');
    expect(config.IDP_SECRET).toBe(secret);
    expect(keyEncryptionSettings(config, 'IDP_SIGNING_KEY_KEK').current).toBe(kek);
  });

  it('lets a value set directly win over its file', () => {
    const [direct, inFile] = [strong(), strong()];
    const config = parseEnv(schema, {
      DATABASE_URL: 'postgresql://x/y',
      IDP_SECRET: direct,
      IDP_SECRET_FILE: file('other', inFile),
      IDP_SIGNING_KEY_KEK: strong(),
    });
    expect(config.IDP_SECRET).toBe(direct);
  });

  it('refuses to start when a _FILE cannot be read, naming it and the path, every such variable at once (in the schema’s order)', () => {
    const message = errorOf(() => parseEnv(schema, { DATABASE_URL: 'postgresql://x/y', IDP_SECRET_FILE: join(dir, 'missing'), IDP_SIGNING_KEY_KEK_FILE: dir }));
    expect(message.split('\n')).toEqual([
      `Invalid configuration: IDP_SIGNING_KEY_KEK_FILE: cannot read ${JSON.stringify(dir)} (EISDIR)`,
      `Invalid configuration: IDP_SECRET_FILE: cannot read ${JSON.stringify(join(dir, 'missing'))} (ENOENT)`,
    ]);
  });

  it('validates a value from a file like any other, says where it came from and never echoes a secret', () => {
    const message = errorOf(() =>
      parseEnv(schema, {
        DATABASE_URL: 'postgresql://x/y',
        IDP_SECRET_FILE: file('weak', 'change-me-to-32-or-more-random-characters\n'),
        IDP_SIGNING_KEY_KEK: strong(),
      }),
    );
    expect(message).toBe(
      'Invalid configuration: IDP_SECRET: is a placeholder from an example; generate one, e.g. `openssl rand -base64 36` (41 characters given, read from IDP_SECRET_FILE)',
    );
  });

  it('never echoes a value read from a file, whatever its name', () => {
    const message = errorOf(() =>
      parseEnv(schema, { DATABASE_URL_FILE: file('mysql', 'mysql://user:hunter2@db/x'), IDP_SECRET: strong(), IDP_SIGNING_KEY_KEK: strong() }),
    );
    expect(message).toBe('Invalid configuration: DATABASE_URL: must be a postgres: or postgresql: URL (25 characters given, read from DATABASE_URL_FILE)');
  });

  it('only reads the files of the variables asked for, leaving the environment given untouched', () => {
    const given = { A_FILE: file('a', 'from a file'), B_FILE: file('b', 'not asked for') };
    const { env: resolved, fromFile } = resolveFileEnv(['A'], given);
    expect(resolved).toEqual({ ...given, A: 'from a file' });
    expect([...fromFile]).toEqual(['A']);
    expect(given).not.toHaveProperty('A');
  });
});
