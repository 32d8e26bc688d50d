// The verifier's certificate made on embedded defaults (397 days): certified again for the same key
// a month before it ends, so wallets never meet an expired one, and read again by every replica.
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { VerifierKey } from '../../src/keys/verifier-key.js';
import { useIssuer } from '../helpers.js';

const suite = useIssuer();
const DAY_MS = 24 * 3600 * 1000;

describe('the verifier’s own certificate', () => {
  it('is renewed for the same key a month before it ends, and a request made before still signs as its link names it', async () => {
    const { deps } = suite.issuer;
    let now = Date.now();
    const replica = () =>
      new VerifierKey({
        db: suite.db,
        keys: deps.keyEncryption,
        ca: deps.issuerCa,
        clock: { now: () => new Date(now) },
        settings: { given: undefined, publicUrl: deps.config.publicUrl, commonName: 'Test verifier', country: 'DE' },
      });
    const [first, second] = [replica(), replica()];
    const made = await first.signer();
    const leafOf = (x5c: string[]) => new X509Certificate(Buffer.from(x5c[0]!, 'base64'));
    const ends = new Date(leafOf(made.x5c).validTo).getTime();
    expect(ends).toBeGreaterThan(now + 396 * DAY_MS);
    // Every replica has the one made first.
    expect((await second.signer()).clientId).toBe(made.clientId);

    // Two months before the end (read again: ten minutes have passed): nothing to renew.
    now = ends - 60 * DAY_MS;
    expect((await first.signer()).clientId).toBe(made.clientId);

    // Within the last month: certified again, the same key, a year more; of replicas renewing at
    // once, the first to store its chain gives it to all.
    now = ends - 20 * DAY_MS;
    const third = replica();
    const [renewed, atOnce] = await Promise.all([first.signer(), third.signer()]);
    expect(atOnce.clientId).toBe(renewed.clientId);
    expect(renewed.clientId).not.toBe(made.clientId);
    expect(leafOf(renewed.x5c).publicKey.export({ format: 'jwk' })).toEqual(leafOf(made.x5c).publicKey.export({ format: 'jwk' }));
    expect(new Date(leafOf(renewed.x5c).validTo).getTime()).toBeGreaterThan(now + 396 * DAY_MS);
    // The other replica reads it (after its ten minutes) and renews nothing itself.
    now += 10 * 60 * 1000 + 1;
    expect((await second.signer()).clientId).toBe(renewed.clientId);
    expect((await first.signer()).clientId).toBe(renewed.clientId);

    // A request made just before, whose link names the old client_id, is signed with the old chain.
    const before = await second.signerFor(made.clientId);
    expect({ clientId: before.clientId, x5c: before.x5c }).toEqual({ clientId: made.clientId, x5c: made.x5c });
    expect((await second.signerFor(renewed.clientId)).x5c).toEqual(renewed.x5c);
    expect((await second.signerFor(undefined)).clientId).toBe(renewed.clientId);
    expect((await second.signerFor('x509_hash:unknown')).clientId).toBe(renewed.clientId);
  });
});
