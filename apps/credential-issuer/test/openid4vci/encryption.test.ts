// Encrypted credential requests and responses (OpenID4VCI 1.0 §8.2, §10; HAIP 1.0: ECDH-ES on
// P-256 with A128GCM), the wallet's side done with jose: it asks for an encrypted response with a
// key of its own, and may encrypt the request itself to the key the metadata publishes.
import { describe, expect, it } from '@jest/globals';
import { CompactEncrypt, compactDecrypt, decodeJwt, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import request from 'supertest';
import { AGE, issuer, nonce, now, offered, proof, tokenFor, url, useRunningIssuer } from './running-issuer.js';
import { newHolder } from './wallet.js';

useRunningIssuer();

async function walletEncryptionKey() {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  return { jwk: { ...(await exportJWK(publicKey)), kid: 'wallet-enc-1' }, privateKey };
}

async function credentialBody(extra: object = {}) {
  const holder = await newHolder();
  const o = await offered(AGE);
  const token = (await tokenFor(o)).body.access_token as string;
  return {
    token,
    holder,
    body: { credential_configuration_id: 'age_over_sd_jwt', proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] }, ...extra },
  };
}

const post = (token: string) => request(issuer.app).post('/credential').set('Authorization', `Bearer ${token}`);

/** The request as a JWE to the key the issuer's metadata lists. */
async function encryptedPost(token: string, body: object, header: Record<string, unknown> = {}) {
  const metadata = (await request(issuer.app).get('/.well-known/openid-credential-issuer')).body;
  const issuerJwk = metadata.credential_request_encryption.jwks.keys[0];
  const jwe = await new CompactEncrypt(new TextEncoder().encode(JSON.stringify(body)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: issuerJwk.kid, ...header })
    .encrypt(await importJWK(issuerJwk, 'ECDH-ES'));
  return post(token).set('Content-Type', 'application/jwt').send(jwe);
}

describe('credential response encryption', () => {
  it('is advertised both ways, neither required; the request key is a P-256 ECDH-ES key', async () => {
    const metadata = (await request(issuer.app).get('/.well-known/openid-credential-issuer')).body;
    expect(metadata.credential_response_encryption).toEqual({
      alg_values_supported: ['ECDH-ES'],
      enc_values_supported: ['A128GCM', 'A256GCM'],
      encryption_required: false,
    });
    expect(metadata.credential_request_encryption).toMatchObject({ enc_values_supported: ['A128GCM', 'A256GCM'], encryption_required: false });
    expect(metadata.credential_request_encryption.jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ECDH-ES', use: 'enc' })]);
    expect(metadata.credential_request_encryption.jwks.keys[0]).not.toHaveProperty('d');
  });

  it('answers a JWE to the wallet’s key, which only that key opens, when the request holding that key was encrypted', async () => {
    const key = await walletEncryptionKey();
    const { token, holder, body } = await credentialBody({ credential_response_encryption: { jwk: key.jwk, enc: 'A128GCM' } });
    // In the clear, anyone who can change the request in transit could put their own key there (§8.2).
    const clear = await post(token).send(body);
    expect(clear.body).toMatchObject({ error: 'invalid_encryption_parameters', error_description: expect.stringContaining('encrypted request') });
    const res = await encryptedPost(token, body);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/jwt/);
    const { plaintext, protectedHeader } = await compactDecrypt(res.text, key.privateKey);
    expect(protectedHeader).toMatchObject({ alg: 'ECDH-ES', enc: 'A128GCM', kid: 'wallet-enc-1' });
    const answer = JSON.parse(new TextDecoder().decode(plaintext));
    expect((decodeJwt(answer.credentials[0].credential.split('~')[0]) as { cnf: { jwk: JWK } }).cnf.jwk.x).toBe(holder.publicJwk.x);
    expect(answer.notification_id).toEqual(expect.any(String));
    const stranger = await walletEncryptionKey();
    await expect(compactDecrypt(res.text, stranger.privateKey)).rejects.toThrow();
  });

  it('takes a request encrypted to the issuer’s key (application/jwt) without response encryption too, answering it in the clear', async () => {
    const { token, body } = await credentialBody();
    const res = await encryptedPost(token, body);
    expect(res.status).toBe(200);
    expect(res.body.credentials).toHaveLength(1);
  });

  it('answers an encrypted request asking for it with the enc it names', async () => {
    const key = await walletEncryptionKey();
    const { token, body } = await credentialBody({ credential_response_encryption: { jwk: { ...key.jwk, alg: 'ECDH-ES' }, enc: 'A256GCM' } });
    const res = await encryptedPost(token, body);
    expect(res.status).toBe(200);
    const { protectedHeader } = await compactDecrypt(res.text, key.privateKey);
    expect(protectedHeader.enc).toBe('A256GCM');
  });

  it('refuses a key that is not a public P-256 one, another alg or enc, a request it cannot decrypt and a compressed one, before anything is issued', async () => {
    const { token, body } = await credentialBody();
    const okp = (await exportJWK((await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true })).publicKey)) as JWK;
    const refusals = [
      [{ jwk: okp, enc: 'A128GCM' }, /public EC P-256 key/],
      [{ jwk: (await walletEncryptionKey()).jwk, enc: 'A128GCM', alg: 'RSA-OAEP-256' }, /alg must be ECDH-ES/],
    ] as const;
    for (const [encryption, reason] of refusals) {
      const res = await encryptedPost(token, { ...body, credential_response_encryption: encryption });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ error: 'invalid_encryption_parameters', error_description: expect.stringMatching(reason) });
    }
    const a192 = await encryptedPost(token, { ...body, credential_response_encryption: { jwk: (await walletEncryptionKey()).jwk, enc: 'A192GCM' } });
    expect(a192.status).toBe(400);
    expect(JSON.stringify(a192.body)).toContain('credential_response_encryption.enc');
    const garbage = await post(token).set('Content-Type', 'application/jwt').send('not.a.jwe.at.all');
    expect(garbage.body).toMatchObject({ error: 'invalid_encryption_parameters' });
    const zipped = await encryptedPost(token, body, { zip: 'DEF' });
    expect(zipped.body).toMatchObject({ error: 'invalid_encryption_parameters' });
    // Nothing was issued on the refusals: the offer's credential is still there to take (with the proof's nonce unspent).
    expect((await post(token).send(body)).status).toBe(200);
  });
});
