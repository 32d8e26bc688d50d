// VC Data Model 2.0 §5.3 relatedResource on issue (the W3C suites' open item): each an object
// with a URL and a digest in a valid form, each URL once; the digest of a resource this issuer
// serves itself (a credential type's metadata) checked against the bytes it serves.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { SUBJECT, useIssuer } from '../helpers.js';

const suite = useIssuer();
const TYPE = 'http://localhost:4002/credential-types/age-over';
const V2 = 'https://www.w3.org/ns/credentials/v2';
const W3C_SUITE_DIGEST = 'uJKGMkOmFbVJhEfKTduMC2XCyvRAYLjOVmZWwIH1wQ7k';

async function issue(relatedResource: unknown) {
  const issuer = (await suite.issuer.deps.issuerKeys.current()).controller;
  return request(suite.issuer.app)
    .post('/credentials/issue')
    .set('X-API-Token', suite.token)
    .send({
      credential: {
        '@context': ['https://www.w3.org/ns/credentials/v2'],
        type: ['VerifiableCredential'],
        issuer,
        credentialSubject: { id: `did:ethr:${SUBJECT}` },
        relatedResource,
      },
    });
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
function base58(bytes: Buffer): string {
  let value = BigInt(`0x${bytes.toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  return '1'.repeat(bytes.length - bytes.toString('hex').replace(/^(00)+/, '').length / 2) + out;
}
const multihash = (code: number, digest: Buffer) => Buffer.concat([Buffer.from([code, digest.length]), digest]);

describe('relatedResource on issue', () => {
  it('signs resources named with a well-formed digest, and this issuer’s own type metadata with its true digest (SRI, base64url and base58btc multihash)', async () => {
    const served = (await request(suite.issuer.app).get('/credential-types/age-over')).text;
    const sha256 = createHash('sha256').update(served).digest();
    const sha384 = createHash('sha384').update(served).digest();
    const res = await issue([
      { id: 'https://example.org/logo.png', mediaType: 'image/png', digestSRI: `sha384-${randomBytes(48).toString('base64')}` },
      { id: TYPE, digestSRI: `sha384-${sha384.toString('base64')}`, digestMultibase: `u${multihash(0x12, sha256).toString('base64url')}` },
      { id: 'https://example.org/terms', digestMultibase: `z${base58(multihash(0x12, randomBytes(32)))}` },
    ]);
    expect(res.status).toBe(201);
    expect(res.body.verifiableCredential.relatedResource).toHaveLength(3);
    const own = await issue({ id: TYPE, digestMultibase: `z${base58(multihash(0x12, sha256))}` });
    expect(own.status).toBe(201);
  });

  it('signs a multibase digest without a multihash header, as the W3C VC DM 2.0 suite sends it, and checks digests of what this issuer serves or VC DM 2.0 publishes', async () => {
    const served = (await request(suite.issuer.app).get('/credential-types/age-over')).text;
    const sha256 = createHash('sha256').update(served).digest();
    const sha512 = createHash('sha512').update(served).digest();
    const res = await issue([
      // The W3C VC DM 2.0 suite's value: base64url of the bare SHA-256 digest of the base context, which VC DM 2.0 §B.1 publishes.
      { id: V2, digestMultibase: W3C_SUITE_DIGEST },
      { id: 'https://example.org/logo.png', digestMultibase: `z${base58(randomBytes(48))}` },
      { id: TYPE, digestMultibase: [`u${sha256.toString('base64url')}`, `z${base58(multihash(0x13, sha512))}`] },
    ]);
    expect(res.body).toMatchObject({ verifiableCredential: expect.any(Object) });
    expect(res.body.verifiableCredential.relatedResource[0].digestMultibase).toBe(W3C_SUITE_DIGEST);
    const wrong = await issue({ id: TYPE, digestMultibase: `u${randomBytes(32).toString('base64url')}` });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details).toEqual([{ field: 'body.credential.relatedResource.digestMultibase', message: expect.stringMatching(/does not match/) }]);
    // The suite's wrong digest of the base context, bare and as a multihash, and its right SHA-384 as SRI.
    const wrongV2 = Buffer.from('M4RgWQc3RUDtjJCSgTJtTfvpZ7SPEg_LNO0ESlovQC0', 'base64url');
    for (const digestMultibase of [`u${wrongV2.toString('base64url')}`, `z${base58(multihash(0x12, wrongV2))}`]) {
      const refused = await issue([{ id: V2, digestMultibase }]);
      expect(refused.status).toBe(400);
      expect(refused.body.details).toEqual([
        { field: 'body.credential.relatedResource[0].digestMultibase', message: expect.stringMatching(/published sha256 digest differs/) },
      ]);
    }
    const sri = await issue({
      id: V2,
      digestSRI: 'sha384-NSOcNpmdIVUxIJGvGUoe22FjTWrXiaXlsZ8q6912LdnR3KraQO2n75Ica4wK4Qeg',
      digestMultibase: `z${base58(multihash(0x12, Buffer.from(W3C_SUITE_DIGEST.slice(1), 'base64url')))}`,
    });
    expect(sri.body).toMatchObject({ verifiableCredential: expect.any(Object) });
    // Neither a SHA-2 digest's length nor a multihash of one.
    const odd = await issue({ id: 'https://example.org/a', digestMultibase: `u${randomBytes(20).toString('base64url')}` });
    expect(odd.status).toBe(400);
    expect(odd.body.details).toEqual([{ field: 'body.credential.relatedResource.digestMultibase', message: expect.stringMatching(/32, 48 or 64 bytes/) }]);
  });

  it('refuses, naming the field: no digest, a malformed one, a URL twice, not a URL, and a wrong digest of what this issuer serves', async () => {
    const cases: [unknown, string, RegExp][] = [
      [{ id: 'https://example.org/a' }, 'body.credential.relatedResource', /needs digestSRI or digestMultibase/],
      [{ id: 'https://example.org/a', digestSRI: 'md5-abc' }, 'body.credential.relatedResource.digestSRI', /Subresource Integrity/],
      [
        { id: 'https://example.org/a', digestSRI: `sha256-${randomBytes(20).toString('base64')}` },
        'body.credential.relatedResource.digestSRI',
        /Subresource Integrity/,
      ],
      [{ id: 'https://example.org/a', digestMultibase: 'mAAAA' }, 'body.credential.relatedResource.digestMultibase', /multihash/],
      [
        [
          { id: 'https://example.org/a', digestSRI: `sha256-${randomBytes(32).toString('base64')}` },
          { id: 'https://example.org/a', digestSRI: `sha256-${randomBytes(32).toString('base64')}` },
        ],
        'body.credential.relatedResource[1].id',
        /earlier entry/,
      ],
      [{ id: 'not a url', digestSRI: `sha256-${randomBytes(32).toString('base64')}` }, 'body.credential.relatedResource.id', /URL/],
      [{ id: TYPE, digestSRI: `sha256-${randomBytes(32).toString('base64')}` }, 'body.credential.relatedResource.digestSRI', /does not match/],
      [[], 'body.credential.relatedResource', /non-empty/],
    ];
    for (const [value, field, message] of cases) {
      const res = await issue(value);
      expect(res.status).toBe(400);
      expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field, message: expect.stringMatching(message) })]));
    }
  });
});
