// HAIP 1.0: the keys SD-JWT VCs and Status List Tokens are signed with are certified by the issuer
// CA, and each JWT carries its chain (`x5c`). A verifier that trusts only the CA's certificate (as
// served) checks a credential and its status with Node's own X.509 (OpenSSL) and @sd-jwt/sd-jwt-vc,
// with no web lookup of the issuer's keys; a key rotation leaves what was signed before verifiable.
import { createPrivateKey, generateKeyPairSync, X509Certificate } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { rotateSigningKey } from '@svc/admin';
import { ConfigError } from '@svc/http';
import { testDatabaseUrl, testSigningKeyKek } from '@svc/testkit';
import { decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { loadConfig } from '../../src/config.js';
import { makeAuthority } from '../../src/keys/certificates.js';
import { arrangeOrg, buildIssuer } from '../helpers.js';
import { AGE, db, issuer, offered, url, useRunningIssuer } from '../openid4vci/running-issuer.js';
import { newHolder, present, receive, verifyByCertificate } from '../openid4vci/wallet.js';

useRunningIssuer();

const caPem = async () => {
  const res = await request(issuer.app).get('/certificates/issuer-ca.pem');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/x-pem-file/);
  return res.text;
};

const x5cOf = (jwt: string) => decodeProtectedHeader(jwt).x5c as string[];

describe('the issuer CA', () => {
  it('is served as PEM: a self-signed CA certificate naming the country, made once and the same for every replica', async () => {
    const pem = await caPem();
    const ca = new X509Certificate(pem);
    expect(ca.ca).toBe(true);
    expect(ca.checkIssued(ca)).toBe(true);
    expect(ca.subject).toContain('C=ZZ');
    // Named after the issuer whose first start made it (ISSUER_DISPLAY_NAME).
    expect(ca.subject).toMatch(/CN=.+ CA/);
    // A second replica on the same database finds it rather than making its own.
    const replica = buildIssuer({ PUBLIC_URL: url });
    try {
      expect((await request(replica.app).get('/certificates/issuer-ca.pem')).text).toBe(pem);
    } finally {
      await replica.deps.close();
    }
  });

  it('certifies the signing key: the SD-JWT VC carries the chain, its leaf names the issuer URL, and a verifier trusting only the CA checks the credential and its status', async () => {
    const ca = new X509Certificate(await caPem());
    const holder = await newHolder('ES256');
    const o = await offered(AGE);
    const { credential } = await receive(holder, o.offer_link, o.tx_code);
    const jwt = credential.split('~')[0]!;
    const header = decodeProtectedHeader(jwt);
    expect(header).toMatchObject({ alg: 'ES256', typ: 'dc+sd-jwt', kid: expect.any(String) });
    const chain = x5cOf(jwt);
    // Leaf first, without the root: the CA is self-signed, so the chain is the leaf alone.
    expect(chain).toHaveLength(1);
    const leaf = new X509Certificate(Buffer.from(chain[0]!, 'base64'));
    expect(leaf.checkIssued(ca) && leaf.verify(ca.publicKey)).toBe(true);
    expect(leaf.ca).toBe(false);
    expect(leaf.subjectAltName).toBe(`URI:${url}`);
    expect(leaf.keyUsage).toContain('1.0.18013.5.1.2');
    // The leaf outlives every credential signed under it.
    expect(new Date(leaf.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 24 * 3600 * 1000);

    const shown = await present(holder, credential, { age_over_18: true }, { aud: 'https://shop.example', nonce: 'n-x5c' });
    const verified = await verifyByCertificate(ca.toString(), shown, 'n-x5c', ['age_over_18']);
    expect(verified.payload.age_over_18).toBe(true);

    // The Status List Token is certified the same way (the verifier above checked it by its x5c).
    const uri = (verified.payload.status as { status_list: { uri: string } }).status_list.uri;
    const list = await request(issuer.app).get(new URL(uri).pathname);
    expect(x5cOf(list.text)).toEqual(chain);

    // A CA it does not trust gets it nowhere.
    const other = await makeAuthority({ name: 'Elsewhere CA', country: 'DE', now: new Date() });
    await expect(verifyByCertificate(other.certificatePem, shown, 'n-x5c')).rejects.toThrow();
  });

  it('after a key rotation, new credentials carry the new key’s certificate and earlier ones still verify against the CA', async () => {
    const ca = await caPem();
    const holder = await newHolder('ES256');
    const first = await offered(AGE);
    const before = (await receive(holder, first.offer_link, first.tx_code)).credential;
    await rotateSigningKey((await arrangeOrg(db)).ctx, { service: 'credential-issuer' });
    // A fresh replica sees the new key at once (a running one within its refresh interval).
    const replica = buildIssuer({ PUBLIC_URL: url, ISSUER_DISPLAY_NAME: 'Acme credentials' });
    try {
      const second = await request(replica.app)
        .post('/credential-offers')
        .set('X-API-Token', (await arrangeOrg(db)).token.key)
        .send(AGE);
      expect(second.status).toBe(201);
      const signer = await replica.deps.issuerKeys.jwtSigner();
      expect(signer.x5c[0]).not.toBe(x5cOf(before.split('~')[0]!)[0]);
      expect(new X509Certificate(Buffer.from(signer.x5c[0]!, 'base64')).checkIssued(new X509Certificate(ca))).toBe(true);
    } finally {
      await replica.deps.close();
    }
    const shown = await present(holder, before, { age_over_18: true }, { aud: 'https://shop.example', nonce: 'n-old' });
    expect((await verifyByCertificate(ca, shown, 'n-old')).payload.iss).toBe(url);
  });
});

describe('a CA the operator brings (ISSUER_CA_CERT, ISSUER_CA_KEY)', () => {
  it('certifies the keys under it; its certificate is the one served', async () => {
    const brought = await makeAuthority({ name: 'Operator Root', country: 'FR', now: new Date() });
    const keyPem = await pkcs8Pem(brought.privateKeyJwk);
    const own = buildIssuer({ PUBLIC_URL: url, ISSUER_CA_CERT: brought.certificatePem, ISSUER_CA_KEY: keyPem, ISSUER_CA_COUNTRY: 'FR' });
    try {
      expect(new X509Certificate((await request(own.app).get('/certificates/issuer-ca.pem')).text).fingerprint256).toBe(
        new X509Certificate(brought.certificatePem).fingerprint256,
      );
      const signer = await own.deps.issuerKeys.jwtSigner();
      const leaf = new X509Certificate(Buffer.from(signer.x5c[0]!, 'base64'));
      expect(leaf.checkIssued(new X509Certificate(brought.certificatePem))).toBe(true);
      expect(leaf.subject).toContain('C=FR');
    } finally {
      await own.deps.close();
    }
  });

  it('is refused, naming the variable, when one half is missing, the certificate is not a CA, or the key is not its key', async () => {
    const a = await makeAuthority({ name: 'A', country: 'DE', now: new Date() });
    const b = await makeAuthority({ name: 'B', country: 'DE', now: new Date() });
    const [aKey, bKey] = [await pkcs8Pem(a.privateKeyJwk), await pkcs8Pem(b.privateKeyJwk)];
    expect(() => configWith({ ISSUER_CA_CERT: a.certificatePem })).toThrow(ConfigError);
    expect(() => configWith({ ISSUER_CA_CERT: a.certificatePem })).toThrow(/ISSUER_CA_CERT and ISSUER_CA_KEY: set both/);
    expect(() => configWith({ ISSUER_CA_KEY: 'not a key' })).toThrow(/ISSUER_CA_KEY: must be a PEM PKCS#8 private key \(9 characters given\)/);
    expect(() => configWith({ ISSUER_CA_COUNTRY: 'Germany' })).toThrow(/ISSUER_CA_COUNTRY: must be an ISO 3166-1 alpha-2 code/);
    expect(() => configWith({ ISSUER_CA_CERT: a.certificatePem, ISSUER_CA_KEY: bKey })).toThrow(/ISSUER_CA_KEY: not the key of ISSUER_CA_CERT/);
    const leaf = await issuer.deps.issuerKeys.jwtSigner();
    const leafPem = new X509Certificate(Buffer.from(leaf.x5c[0]!, 'base64')).toString();
    expect(() => configWith({ ISSUER_CA_CERT: leafPem, ISSUER_CA_KEY: aKey })).toThrow(/ISSUER_CA_CERT: not a CA certificate/);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }) as string;
    expect(() => configWith({ ISSUER_CA_CERT: a.certificatePem, ISSUER_CA_KEY: rsa })).toThrow(/ISSUER_CA_KEY: must be a P-256/);
  });
});

const configWith = (env: NodeJS.ProcessEnv) =>
  loadConfig({ DATABASE_URL: testDatabaseUrl(), ISSUER_SIGNING_KEY_KEK: testSigningKeyKek('credential-issuer'), ...env });

async function pkcs8Pem(jwk: object): Promise<string> {
  return createPrivateKey({ key: jwk as never, format: 'jwk' }).export({ format: 'pem', type: 'pkcs8' }) as string;
}
