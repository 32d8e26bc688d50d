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
} from '../src/index.js';

describe('API keys', () => {
  it('generates recognisable keys whose hash and prefix parse back', () => {
    const generated = generateApiKey();
    expect(generated.key).toMatch(/^svck_[0-9A-Za-z]{8}_[0-9A-Za-z]{43}[0-9a-f]{6}$/);
    expect(parseApiKey(generated.key)).toEqual({ prefix: generated.prefix, hash: generated.hash });
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

  it('never repeats', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().key));
    expect(keys.size).toBe(200);
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
});
