// Which certificate chains vouch for a presented credential (trust.ts): RFC 5280 as far as
// credentials need it. Each refused chain here is an attack: a signer that certifies others, a
// reader's (a verifier's) key passing for an issuer's, a trust anchor signing credentials itself.
import 'reflect-metadata';
import { webcrypto } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import * as x509 from '@peculiar/x509';
import { anchorsOf, trustedChain } from '../../src/openid4vp/formats/trust.js';

x509.cryptoProvider.set(webcrypto as never);
const ES256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DOCUMENT_SIGNER = '1.0.18013.5.1.2';
const READER = '1.0.18013.5.1.6';
const now = new Date();
const keys = () => webcrypto.subtle.generateKey(ES256, true, ['sign', 'verify']) as Promise<webcrypto.CryptoKeyPair>;
const validity = { notBefore: new Date(now.getTime() - 3_600_000), notAfter: new Date(now.getTime() + 3_600_000) };

async function root(name = 'Root') {
  const pair = await keys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name}, C=DE`,
    ...validity,
    keys: pair,
    signingAlgorithm: ES256,
    extensions: [new x509.BasicConstraintsExtension(true, 1, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  return { certificate, pair };
}

type Signer = Awaited<ReturnType<typeof root>>;
async function issued(by: Signer, name: string, extensions: x509.Extension[]) {
  const pair = await keys();
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name}, C=DE`,
    issuer: by.certificate.subject,
    ...validity,
    signingKey: by.pair.privateKey,
    publicKey: pair.publicKey,
    signingAlgorithm: ES256,
    extensions,
  });
  return { certificate, pair };
}
const signerExtensions = (usage = DOCUMENT_SIGNER) => [
  new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
  new x509.ExtendedKeyUsageExtension([usage], true),
];
const b64 = (...certificates: x509.X509Certificate[]) => certificates.map((c) => c.toString('base64'));

describe('the chains that vouch for a credential', () => {
  it('takes a document signer under a trusted root, and one under an intermediate CA', async () => {
    const trusted = await root();
    const anchors = anchorsOf(trusted.certificate.toString('pem'), undefined, undefined);
    const leaf = await issued(trusted, 'Signer', signerExtensions());
    await expect(trustedChain(b64(leaf.certificate), anchors, now, 'mdoc')).resolves.toMatchObject({ underOwnCa: true });
    const intermediate = await issued(trusted, 'Intermediate', [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true),
    ]);
    const below = await issued(intermediate, 'Signer below', signerExtensions());
    await expect(trustedChain(b64(below.certificate, intermediate.certificate), anchors, now, 'mdoc')).resolves.toMatchObject({ underOwnCa: true });
  });

  it('refuses a signer that certifies another, a reader’s certificate, a trust anchor as signer, and an mdoc signer without its purpose', async () => {
    const trusted = await root();
    const anchors = anchorsOf(trusted.certificate.toString('pem'), undefined, undefined);
    const signer = await issued(trusted, 'Signer', signerExtensions());
    // Anyone holding any end-entity key under the root makes themselves an issuer of their choosing.
    const minted = await issued(signer, 'Minted', signerExtensions());
    await expect(trustedChain(b64(minted.certificate, signer.certificate), anchors, now, 'credential')).rejects.toMatchObject({ check: 'issuer_trust' });
    const reader = await issued(trusted, 'Verifier', signerExtensions(READER));
    await expect(trustedChain(b64(reader.certificate), anchors, now, 'credential')).rejects.toMatchObject({
      check: 'issuer_trust',
      message: expect.stringContaining('reader'),
    });
    await expect(trustedChain(b64(trusted.certificate), anchors, now, 'credential')).rejects.toMatchObject({ check: 'issuer_trust' });
    const plain = await issued(trusted, 'Plain', [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true)]);
    await expect(trustedChain(b64(plain.certificate), anchors, now, 'credential')).resolves.toBeDefined();
    await expect(trustedChain(b64(plain.certificate), anchors, now, 'mdoc')).rejects.toMatchObject({ message: expect.stringContaining('document signer') });
  });

  it('refuses a chain to a root nobody trusts, and one past a CA’s path length', async () => {
    const trusted = await root();
    const stranger = await root('Stranger');
    const anchors = anchorsOf(trusted.certificate.toString('pem'), undefined, undefined);
    const foreign = await issued(stranger, 'Foreign signer', signerExtensions());
    await expect(trustedChain(b64(foreign.certificate), anchors, now, 'credential')).rejects.toMatchObject({ check: 'issuer_trust' });
    // Root path length 1: one intermediate may sit below it, not two.
    const ca = [new x509.BasicConstraintsExtension(true, undefined, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)];
    const first = await issued(trusted, 'First', ca);
    const second = await issued(first, 'Second', ca);
    const deep = await issued(second, 'Deep signer', signerExtensions());
    await expect(trustedChain(b64(deep.certificate, second.certificate, first.certificate), anchors, now, 'credential')).rejects.toMatchObject({
      check: 'issuer_trust',
    });
  });
});
