import { createSecretKey, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { deriveKey, seal, unseal } from '../src/index.js';

describe('seal and unseal', () => {
  const key = randomBytes(32);

  it('round-trips, and hides the plaintext behind a fresh nonce each time', () => {
    const a = seal(key, 'svccode_secret', 'ctx');
    const b = seal(key, 'svccode_secret', 'ctx');
    expect(a).not.toBe(b);
    expect(a).not.toContain('secret');
    expect(unseal(key, a, 'ctx')).toBe('svccode_secret');
  });

  it('refuses another key, another context and a changed value', () => {
    const sealed = seal(key, 'value', 'row-1');
    expect(() => unseal(randomBytes(32), sealed, 'row-1')).toThrow();
    expect(() => unseal(key, sealed, 'row-2')).toThrow();
    const [v, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body!, 'base64url');
    flipped[0]! ^= 1;
    expect(() => unseal(key, [v, iv, flipped.toString('base64url'), tag].join('.'), 'row-1')).toThrow();
    expect(() => unseal(key, 'plain text', 'row-1')).toThrow('not a sealed value');
  });

  it('derives a different key per purpose', () => {
    expect(deriveKey('s', 'a').equals(deriveKey('s', 'a'))).toBe(true);
    expect(deriveKey('s', 'a').equals(deriveKey('s', 'b'))).toBe(false);
  });
});

describe('seal with a KeyObject', () => {
  it('opens what the same key sealed as bytes, and the other way round', () => {
    const bytes = randomBytes(32);
    expect(unseal(createSecretKey(bytes), seal(bytes, 'value', 'c'), 'c')).toBe('value');
    expect(unseal(bytes, seal(createSecretKey(bytes), 'value', 'c'), 'c')).toBe('value');
  });
});
