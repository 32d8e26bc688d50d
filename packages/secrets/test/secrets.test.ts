import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  constantTimeEqual,
  generateApiKey,
  generateClientSecret,
  hashApiKey,
  hashPassword,
  parseApiKey,
  randomBase62,
  verifyClientSecret,
  verifyPassword,
  DUMMY_PASSWORD_HASH,
  environmentOf,
  generateClientId,
  marked,
  sha256Base64Url,
  sha256Hex,
} from '../src/index.js';

describe('API keys', () => {
  it('generates recognisable keys whose hash and prefix parse back', () => {
    const generated = generateApiKey();
    expect(generated.key).toMatch(/^svck_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}[0-9a-f]{6}$/);
    expect(parseApiKey(generated.key)).toEqual({ prefix: generated.prefix, hash: generated.hash, environment: 'production' });
    expect(generated.hash).toBe(hashApiKey(generated.key));
    expect(generated.hash).not.toContain(generated.key.slice(14));
  });

  it('refuses a key with one changed character before any lookup', () => {
    const { key } = generateApiKey();
    const i = 20;
    const tampered = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
    expect(parseApiKey(tampered)).toBeUndefined();
    expect(parseApiKey(`${key}x`)).toBeUndefined();
    expect(parseApiKey('svck_short')).toBeUndefined();
  });

  it('marks a sandbox key with sbx_, and a key moved between environments by its mark fails its check', () => {
    const sandbox = generateApiKey('sandbox');
    expect(sandbox.key).toMatch(/^sbx_svck_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}[0-9a-f]{6}$/);
    expect(parseApiKey(sandbox.key)).toEqual({ prefix: sandbox.prefix, hash: sandbox.hash, environment: 'sandbox' });
    expect(parseApiKey(sandbox.key.slice(4))).toBeUndefined();
    expect(parseApiKey(`sbx_${generateApiKey().key}`)).toBeUndefined();
  });

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
  });
});

describe('environments', () => {
  it('tells which environment made each of our values, and nothing of anything else', () => {
    expect(environmentOf(generateClientId())).toBe('production');
    expect(environmentOf(generateClientId('sandbox'))).toBe('sandbox');
    expect(generateClientSecret('sandbox').secret).toMatch(/^sbx_svcs_[0-9A-Za-z]{43}$/);
    expect(environmentOf(generateClientSecret().secret)).toBe('production');
    expect(environmentOf(marked('sandbox', 'svcrt_abc'))).toBe('sandbox');
    expect(marked('production', 'svcrt_abc')).toBe('svcrt_abc');
    for (const other of ['', 'sbx_', 'sbx_other', 'eyJhbGciOiJSUzI1NiJ9.e30.x', 'svc_clientX', 'svcsess_']) expect(environmentOf(other)).toBeUndefined();
  });
});

describe('client secrets', () => {
  it('verifies the secret against its hash and nothing else', () => {
    const { secret, hash } = generateClientSecret();
    expect(verifyClientSecret(secret, hash)).toBe(true);
    expect(verifyClientSecret(`${secret}x`, hash)).toBe(false);
    expect(verifyClientSecret('', hash)).toBe(false);
  });
});

describe('passwords', () => {
  it('hashes with scrypt and a fresh salt, and verifies', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
  });

  it('treats Unicode compatibility forms alike (NFKC)', async () => {
    const hash = await hashPassword('ｐａｓｓｗｏｒｄ');
    expect(await verifyPassword('password', hash)).toBe(true);
  });

  it('refuses anything against the dummy hash and malformed hashes', async () => {
    expect(await verifyPassword('anything', DUMMY_PASSWORD_HASH)).toBe(false);
    expect(await verifyPassword('anything', 'bcrypt$whatever')).toBe(false);
  });
});

describe('helpers', () => {
  it('compares strings in constant time with the right answer', () => {
    expect(constantTimeEqual('abc', 'abc')).toBe(true);
    expect(constantTimeEqual('abc', 'abd')).toBe(false);
    expect(constantTimeEqual('abc', 'abcd')).toBe(false);
  });

  it('draws base62 characters of the requested length', () => {
    const value = randomBase62(500);
    expect(value).toMatch(/^[0-9A-Za-z]{500}$/);
    expect(new Set(value).size).toBeGreaterThan(50);
  });

  it('hashes with SHA-256 as stored keys and secrets were hashed (UTF-8 input, FIPS 180-2 vectors)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Base64Url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0');
    expect(sha256Hex('ü')).toBe(createHash('sha256').update(Buffer.from('ü', 'utf8')).digest('hex'));
  });
});
