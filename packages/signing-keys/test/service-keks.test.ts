import { afterAll, describe, expect, it } from '@jest/globals';
import { testDb } from '@svc/testkit';
import { ensureSigningKey, KeyEncryption, rewrapSigningKeys, rotateSigningKey } from '../src/index.js';

const SHARED = 'shared-kek-7c1f9e2a4b6d8c0e1f3a5b7d9e2c4a6b';
const OLD = 'last-years-kek-5d3b1f9e7c5a3e1d9b7f5c3a1e9d7b5f';
const IDP = 'idp-kek-3e5a7c9b1d2f4e6a8c0b2d4f6a8c1e3b';
const ISSUER = 'issuer-kek-8b6d4f2a0c9e7b5d3f1a2c4e6b8d0f9a';
const jwk = { kty: 'RSA', d: 'private-exponent', n: 'modulus' };

describe('a key-encryption key per service', () => {
  it('does not open the identity provider’s keys with the credential issuer’s KEK, even when both were given the same secret', () => {
    const sealed = new KeyEncryption('identity-provider', { current: SHARED }).seal(jwk, 'kid-1');
    expect(() => new KeyEncryption('credential-issuer', { current: SHARED }).open(sealed, 'kid-1')).toThrow(/not configured/);
    expect(() => new KeyEncryption('credential-issuer', { current: ISSUER, previous: [SHARED, IDP] }).open(sealed, 'kid-1')).toThrow(/not configured/);
    expect(new KeyEncryption('identity-provider', { current: SHARED }).open(sealed, 'kid-1')).toEqual(jwk);
  });

  it('names the service’s own variable when a key does not open', () => {
    const sealed = new KeyEncryption('credential-issuer', { current: ISSUER }).seal(jwk, 'kid-1');
    expect(() => new KeyEncryption('credential-issuer', { current: IDP }).open(sealed, 'kid-1')).toThrow(/ISSUER_SIGNING_KEY_KEK/);
  });

  it('needs the service’s own key', () => {
    expect(() => new KeyEncryption('identity-provider', {})).toThrow(/IDP_SIGNING_KEY_KEK/);
  });
});

describe('keys:rewrap after a rotation of a service’s key-encryption key', () => {
  const db = testDb();
  afterAll(async () => {
    await db.$disconnect();
  });

  it('re-seals every key of one service, and leaves the other service’s keys alone', async () => {
    // Identity-provider rows are this file's alone (rotate.test.ts works on credential-issuer keys).
    await db.signingKey.deleteMany({ where: { service: 'identity-provider' } });
    const lastYear = new KeyEncryption('identity-provider', { current: OLD });
    await ensureSigningKey({ db, now: () => new Date(), keys: lastYear }, 'identity-provider');
    const issuerKid = `issuer-${Date.now()}`;
    const issuerSealed = { ...new KeyEncryption('credential-issuer', { current: OLD }).seal(jwk, issuerKid) };
    await db.signingKey.create({
      data: { kid: issuerKid, service: 'credential-issuer', algorithm: 'Bls12381G2', publicKey: {}, privateKey: issuerSealed, status: 'retired' },
    });

    const idp = new KeyEncryption('identity-provider', { current: IDP, previous: [OLD] });
    // One key per algorithm of the identity provider (RS256 and PS256).
    expect(await rewrapSigningKeys({ db, keys: idp }, 'identity-provider')).toBe(2);
    expect((await db.signingKey.findUniqueOrThrow({ where: { kid: issuerKid } })).privateKey).toEqual(issuerSealed);
    const idpRow = await db.signingKey.findFirstOrThrow({ where: { service: 'identity-provider' } });
    expect(new KeyEncryption('identity-provider', { current: IDP }).open(idpRow.privateKey, idpRow.kid)).toMatchObject({ kty: 'RSA' });
    expect(() => lastYear.open(idpRow.privateKey, idpRow.kid)).toThrow(/not configured/);
    expect(() => new KeyEncryption('credential-issuer', { current: ISSUER, previous: [OLD] }).open(idpRow.privateKey, idpRow.kid)).toThrow(/not configured/);
    await db.signingKey.delete({ where: { kid: issuerKid } });
  });

  it('keeps an RS256 key the newest to activate, so a replica of a release that knew RS256 alone never signs with the PS256 key', async () => {
    // Identity-provider rows are this file's alone (see above).
    await db.signingKey.deleteMany({ where: { service: 'identity-provider' } });
    const keys = new KeyEncryption('identity-provider', { current: IDP });
    // What the previous release did: the newest active key whose activation has come, whatever its algorithm.
    const previousReleaseSigner = async () =>
      (
        await db.signingKey.findMany({
          where: { service: 'identity-provider', status: 'active', activatesAt: { lte: new Date() } },
          orderBy: { activatesAt: 'desc' },
        })
      )[0]!;
    // An upgrade: the RS256 key exists, the first start of the new release adds PS256.
    await db.signingKey.create({
      data: {
        kid: `rs-${Date.now()}`,
        service: 'identity-provider',
        algorithm: 'RS256',
        publicKey: {},
        privateKey: { ...keys.seal(jwk, 'x') },
        status: 'active',
        activatesAt: new Date(Date.now() - 60_000),
      },
    });
    await ensureSigningKey({ db, now: () => new Date(), keys }, 'identity-provider');
    expect(await db.signingKey.count({ where: { service: 'identity-provider', algorithm: 'PS256', status: 'active' } })).toBe(1);
    expect((await previousReleaseSigner()).algorithm).toBe('RS256');
    // A rotation of both while old replicas still run.
    const { kids } = await rotateSigningKey({ db, now: () => new Date(), keys }, 'identity-provider');
    expect((await previousReleaseSigner()).kid).toBe(kids[0]);
    await db.signingKey.deleteMany({ where: { service: 'identity-provider' } });
  });

  it('refuses to seal one service’s keys with another service’s key encryption', async () => {
    const issuerKeys = new KeyEncryption('credential-issuer', { current: ISSUER });
    await expect(rotateSigningKey({ db, now: () => new Date(), keys: issuerKeys }, 'identity-provider')).rejects.toThrow(/credential-issuer/);
    await expect(rewrapSigningKeys({ db, keys: issuerKeys }, 'identity-provider')).rejects.toThrow(/credential-issuer/);
  });
});
