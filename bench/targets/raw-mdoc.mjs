// Baseline: @animo-id/mdoc issuing the EU age verification mdoc alone on one thread (salted items,
// digests, the MSO and its ES256 COSE signature with a certificate in x5chain: what each wallet
// mdoc costs the issuer to sign), in a process of its own.
//   node raw-mdoc.mjs <seconds>  → prints mdocs per second
import 'reflect-metadata';
import { createHash, generateKeyPairSync, randomBytes, sign, webcrypto } from 'node:crypto';
import { cborEncode, Document } from '@animo-id/mdoc';
import * as x509 from '@peculiar/x509';
import { printPerSecond } from './per-second.mjs';

x509.cryptoProvider.set(webcrypto);
const seconds = Number(process.argv[2]);
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
const certificate = await x509.X509CertificateGenerator.createSelfSigned({
  serialNumber: '01',
  name: 'CN=bench, C=ZZ',
  notBefore: new Date(),
  notAfter: new Date(Date.now() + 864e5),
  keys,
  signingAlgorithm: alg,
});
const privateJwk = await webcrypto.subtle.exportKey('jwk', keys.privateKey);
const privateKey = (await import('node:crypto')).createPrivateKey({ key: privateJwk, format: 'jwk' });
const device = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
const crypto = {
  random: (n) => new Uint8Array(randomBytes(n)),
  digest: ({ bytes }) => new Uint8Array(createHash('sha256').update(bytes).digest()),
  calculateEphemeralMacKeyJwk: () => {
    throw new Error('unused');
  },
};
const cose = {
  sign1: {
    sign: ({ sign1 }) => new Uint8Array(sign('sha256', sign1.getRawSigningData().data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
    verify: () => false,
  },
  mac0: { sign: () => new Uint8Array(), verify: () => false },
};
const der = new Uint8Array(certificate.rawData);
const issue = async () => {
  const now = new Date();
  const doc = await new Document('eu.europa.ec.av.1', { crypto })
    .addIssuerNameSpace('eu.europa.ec.av.1', { age_over_18: true, age_over_21: true })
    .useDigestAlgorithm('SHA-256')
    .addValidityInfo({ signed: now, validFrom: now, validUntil: new Date(now.getTime() + 365 * 864e5) })
    .addDeviceKeyInfo({ deviceKey: device })
    .sign({ issuerPrivateKey: privateJwk, issuerCertificate: der, alg: 'ES256', kid: 'bench' }, { crypto, cose });
  return Buffer.from(cborEncode(doc.prepare().get('issuerSigned'))).toString('base64url');
};
await printPerSecond(seconds, issue);
