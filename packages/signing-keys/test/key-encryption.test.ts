import { describe, expect, it } from '@jest/globals';
import { KeyEncryption } from '../src/index.js';

const OLD = 'old-kek-4f9a1c2e8b7d6a5f3e2d1c0b9a8f7e6d';
const NEW = 'new-kek-9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b';
const jwk = { kty: 'RSA', d: 'private-exponent', n: 'modulus' };

describe('KeyEncryption (envelope encryption of signing keys)', () => {
  it('seals a private key so that nothing of it shows, and opens it again', () => {
    const keys = new KeyEncryption('identity-provider', { current: NEW });
    const sealed = keys.seal(jwk, 'kid-1');
    expect(JSON.stringify(sealed)).not.toContain('private-exponent');
    expect(keys.open(sealed, 'kid-1')).toEqual(jwk);
  });

  it('refuses another key id, and a KEK that is not configured', () => {
    const sealed = new KeyEncryption('identity-provider', { current: NEW }).seal(jwk, 'kid-1');
    expect(() => new KeyEncryption('identity-provider', { current: NEW }).open(sealed, 'kid-2')).toThrow();
    expect(() => new KeyEncryption('identity-provider', { current: OLD }).open(sealed, 'kid-1')).toThrow(/not configured/);
  });

  it('opens keys wrapped by a previous KEK during a rotation, and says they need re-wrapping', () => {
    const sealed = new KeyEncryption('identity-provider', { current: OLD }).seal(jwk, 'kid-1');
    const rotating = new KeyEncryption('identity-provider', { current: NEW, previous: [OLD] });
    expect(rotating.open(sealed, 'kid-1')).toEqual(jwk);
    expect(rotating.needsRewrap(sealed)).toBe(true);
    expect(rotating.needsRewrap(rotating.seal(jwk, 'kid-1'))).toBe(false);
  });

  it('reads a row written before encryption as it is, and marks it for sealing', () => {
    const keys = new KeyEncryption('identity-provider', { current: NEW });
    expect(keys.open(jwk, 'kid-1')).toEqual(jwk);
    expect(keys.needsRewrap(jwk)).toBe(true);
  });
});
