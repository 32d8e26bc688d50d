import { afterEach, describe, expect, it } from '@jest/globals';
import { KeyEncryption } from '@svc/signing-keys';
import { testSigningKeyKek } from '@svc/testkit';
import { cli, db, expectRefused } from './cli-harness.js';

const SHARED = 'shared-kek-of-an-earlier-release-4c8e2a6f0b9d';
const jwk = { kty: 'RSA', d: 'private-exponent', n: 'modulus', e: 'AQAB' };
const OWN = testSigningKeyKek('identity-provider');

afterEach(() => {
  delete process.env.SIGNING_KEY_KEK;
  process.env.IDP_SIGNING_KEY_KEK = OWN;
});

describe('keys:rewrap', () => {
  it('moves a service’s keys off the shared SIGNING_KEY_KEK onto its own key-encryption key', async () => {
    const kid = `legacy-${Date.now()}`;
    const sealed = new KeyEncryption('identity-provider', { legacy: [SHARED] }).seal(jwk, kid);
    await db.signingKey.create({
      data: { kid, service: 'identity-provider', algorithm: 'RS256', publicKey: {}, privateKey: { ...sealed }, status: 'retired' },
    });

    process.env.SIGNING_KEY_KEK = SHARED;
    const run = await cli('keys:rewrap', '--service', 'identity-provider');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ service: 'identity-provider', rewrapped: expect.any(Number) });
    expect(run.json.rewrapped).toBeGreaterThanOrEqual(1);

    const row = await db.signingKey.findUniqueOrThrow({ where: { kid } });
    expect(new KeyEncryption('identity-provider', { current: OWN }).open(row.privateKey, kid)).toEqual(jwk);
    expect(() =>
      new KeyEncryption('credential-issuer', { current: testSigningKeyKek('credential-issuer'), legacy: [SHARED] }).open(row.privateKey, kid),
    ).toThrow();
    await db.signingKey.delete({ where: { kid } });
  });

  it('refuses without the service’s own key-encryption key, naming it', async () => {
    process.env.SIGNING_KEY_KEK = SHARED;
    delete process.env.IDP_SIGNING_KEY_KEK;
    expectRefused(await cli('keys:rewrap', '--service', 'identity-provider'), /IDP_SIGNING_KEY_KEK must be set/);
  });
});
