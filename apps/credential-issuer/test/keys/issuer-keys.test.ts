// The ES256 key set /.well-known/jwt-vc-issuer publishes: read from PostgreSQL once per refresh of
// the signing key, not once per request, and never without the key this replica signs with.
import { describe, expect, it } from '@jest/globals';
import { rotateSigningKey } from '@svc/admin';
import { IssuerKeys } from '../../src/keys/issuer-keys.js';
import { arrangeOrg, useIssuer } from '../helpers.js';

const suite = useIssuer();

describe('the issuer’s public ES256 keys', () => {
  it('come from memory until the signing key is refreshed, and then with the key it signs with', async () => {
    const { deps } = suite.issuer;
    let now = Date.now();
    const keys = new IssuerKeys(
      suite.db,
      deps.config,
      deps.keyEncryption,
      { now: () => new Date(now) },
      { ca: deps.issuerCa, credentialLifetimeMs: 86_400_000 },
    );
    const kids = async () => (await keys.jwtPublicKeys()).map((k) => k.kid);
    const before = await kids();
    expect(before).toContain((await keys.jwtSigner()).kid);

    await rotateSigningKey((await arrangeOrg(suite.db)).ctx, { service: 'credential-issuer' });
    // Within the refresh interval: the same signer, the same set, no read.
    expect(await kids()).toEqual(before);

    now += 10_001;
    const signer = await keys.jwtSigner();
    expect(before).not.toContain(signer.kid);
    expect(await kids()).toEqual(expect.arrayContaining([signer.kid, ...before]));
  });
});
