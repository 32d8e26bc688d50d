import { afterEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { KeyEncryption, WebhookSecrets } from '@svc/signing-keys';
import { testSigningKeyKek } from '@svc/testkit';
import { cli, db, expectRefused } from './cli-harness.js';

const SHARED = 'shared-kek-of-an-earlier-release-4c8e2a6f0b9d';
const jwk = { kty: 'RSA', d: 'private-exponent', n: 'modulus', e: 'AQAB' };
const OWN = testSigningKeyKek('identity-provider');

afterEach(() => {
  delete process.env.SIGNING_KEY_KEK;
  delete process.env.IDP_SIGNING_KEY_KEK_PREVIOUS;
  process.env.IDP_SIGNING_KEY_KEK = OWN;
});

describe('keys:rewrap', () => {
  it('moves a service’s keys from its previous key-encryption key onto its current one', async () => {
    const OLD = 'the-identity-providers-key-encryption-key-of-last-year';
    const kid = `previous-${Date.now()}`;
    const sealed = new KeyEncryption('identity-provider', { current: OLD }).seal(jwk, kid);
    await db.signingKey.create({
      data: { kid, service: 'identity-provider', algorithm: 'RS256', publicKey: {}, privateKey: { ...sealed }, status: 'retired' },
    });

    process.env.IDP_SIGNING_KEY_KEK_PREVIOUS = OLD;
    const run = await cli('keys:rewrap', '--service', 'identity-provider');
    expect(run.code).toBe(0);
    expect(run.json).toEqual({ service: 'identity-provider', rewrapped: expect.any(Number), webhook_secrets_rewrapped: expect.any(Number) });
    expect(run.json.rewrapped).toBeGreaterThanOrEqual(1);

    const row = await db.signingKey.findUniqueOrThrow({ where: { kid } });
    expect(new KeyEncryption('identity-provider', { current: OWN }).open(row.privateKey, kid)).toEqual(jwk);
    expect(() =>
      new KeyEncryption('credential-issuer', { current: testSigningKeyKek('credential-issuer'), previous: [OLD] }).open(row.privateKey, kid),
    ).toThrow();
    await db.signingKey.delete({ where: { kid } });
  });

  it('re-seals webhook endpoints’ signing secrets (the current and a rotated-out one) after a KEK rotation', async () => {
    const OLD = 'the-identity-providers-key-encryption-key-of-last-year';
    const before = new WebhookSecrets(new KeyEncryption('identity-provider', { current: OLD }));
    const org = await db.organization.create({ data: { name: 'Rewrap' } });
    const id = randomUUID();
    await db.webhookEndpoint.create({
      data: {
        id,
        organizationId: org.id,
        url: 'https://hooks.example/in',
        events: ['webhook.test'],
        secret: before.seal(id, 'whsec_current'),
        previousSecret: before.seal(id, 'whsec_previous'),
      },
    });

    process.env.IDP_SIGNING_KEY_KEK_PREVIOUS = OLD;
    const run = await cli('keys:rewrap', '--service', 'identity-provider');
    expect(run.code).toBe(0);
    expect(run.json.webhook_secrets_rewrapped).toBeGreaterThanOrEqual(1);

    // The old KEK can go: the current one alone opens both, still bound to this endpoint.
    const after = new WebhookSecrets(new KeyEncryption('identity-provider', { current: OWN }));
    const row = await db.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(after.open(id, row.secret)).toBe('whsec_current');
    expect(after.open(id, row.previousSecret)).toBe('whsec_previous');
    expect(() => after.open(randomUUID(), row.secret)).toThrow();
    // Run again: nothing left to re-seal for this endpoint.
    const again = await cli('keys:rewrap', '--service', 'identity-provider');
    expect((await db.webhookEndpoint.findUniqueOrThrow({ where: { id } })).secret).toEqual(row.secret);
    expect(again.code).toBe(0);
    await db.organization.delete({ where: { id: org.id } });
  });

  it('refuses without the service’s own key-encryption key, naming it, whatever shared key is set', async () => {
    process.env.SIGNING_KEY_KEK = SHARED;
    delete process.env.IDP_SIGNING_KEY_KEK;
    expectRefused(await cli('keys:rewrap', '--service', 'identity-provider'), /IDP_SIGNING_KEY_KEK must be set/);
  });
});
