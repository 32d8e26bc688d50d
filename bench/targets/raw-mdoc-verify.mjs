// Baseline: @animo-id/mdoc verifying one DeviceResponse alone on one thread (the issuer's COSE
// signature and certificate, the MSO's digests and validity, the device signature over an
// OpenID4VP session transcript: what each mdoc answer costs a verifier before any HTTP), in a
// process of its own.
//   node raw-mdoc-verify.mjs <seconds>  → prints DeviceResponses verified per second
import 'reflect-metadata';
import { createHash, createPublicKey, randomBytes, sign, verify, webcrypto } from 'node:crypto';
import { cborEncode, DataItem, DeviceRequest, DeviceResponse, Document, MDoc, parseIssuerSigned, Verifier } from '@animo-id/mdoc';
import * as x509 from '@peculiar/x509';
import { exportJWK } from 'jose';
import { printPerSecond } from './per-second.mjs';

x509.cryptoProvider.set(webcrypto);
const seconds = Number(process.argv[2]);
const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const keys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
const certificate = await x509.X509CertificateGenerator.createSelfSigned({
  serialNumber: '01',
  name: 'CN=bench, C=ZZ',
  notBefore: new Date(Date.now() - 60_000),
  notAfter: new Date(Date.now() + 864e5),
  keys,
  signingAlgorithm: alg,
});
const issuerJwk = await webcrypto.subtle.exportKey('jwk', keys.privateKey);
const deviceKeys = await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify']);
const deviceJwk = await webcrypto.subtle.exportKey('jwk', deviceKeys.privateKey);
const der = new Uint8Array(certificate.rawData);
const crypto = {
  random: (n) => new Uint8Array(randomBytes(n)),
  digest: ({ digestAlgorithm, bytes }) => new Uint8Array(createHash(digestAlgorithm.replace('-', '').toLowerCase()).update(bytes).digest()),
  calculateEphemeralMacKeyJwk: () => {
    throw new Error('unused');
  },
};
const signWith =
  (jwk) =>
  ({ sign1 }) =>
    new Uint8Array(sign('sha256', sign1.getRawSigningData().data, { key: jwk, format: 'jwk', dsaEncoding: 'ieee-p1363' }));
const verifyCose = ({ sign1, jwk }) => {
  const { data, signature } = sign1.getRawVerificationData();
  return verify('sha256', Buffer.from(data), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, signature);
};
const cert = (bytes) => new x509.X509Certificate(Buffer.from(bytes));
const context = (signJwk) => ({
  crypto,
  cose: { sign1: { sign: signWith(signJwk), verify: verifyCose }, mac0: { sign: () => new Uint8Array(), verify: () => false } },
  x509: {
    getIssuerNameField: ({ certificate: c, field }) => cert(c).issuerName.getField(field),
    getPublicKey: async ({ certificate: c }) => exportJWK(createPublicKey({ key: Buffer.from(cert(c).publicKey.rawData), format: 'der', type: 'spki' })),
    validateCertificateChain: async ({ trustedCertificates, x5chain }) => {
      if (!(await cert(x5chain[0]).verify({ publicKey: cert(trustedCertificates[0]), signatureOnly: true }))) throw new Error('untrusted');
    },
    getCertificateData: async ({ certificate: c }) => {
      const x = cert(c);
      return {
        issuerName: x.issuer,
        subjectName: x.subject,
        serialNumber: x.serialNumber,
        thumbprint: '',
        notBefore: x.notBefore,
        notAfter: x.notAfter,
        pem: '',
      };
    },
  },
});
const now = new Date();
const issued = await new Document('eu.europa.ec.av.1', { crypto })
  .addIssuerNameSpace('eu.europa.ec.av.1', { age_over_18: true, age_over_21: true })
  .useDigestAlgorithm('SHA-256')
  .addValidityInfo({ signed: now, validFrom: now, validUntil: new Date(now.getTime() + 864e5) })
  .addDeviceKeyInfo({ deviceKey: { kty: 'EC', crv: 'P-256', x: deviceJwk.x, y: deviceJwk.y } })
  .sign({ issuerPrivateKey: issuerJwk, issuerCertificate: der, alg: 'ES256', kid: 'bench' }, context(issuerJwk));
const document = parseIssuerSigned(cborEncode(issued.prepare().get('issuerSigned')), 'eu.europa.ec.av.1');
const handover = createHash('sha256')
  .update(cborEncode(['x509_hash:bench', 'bench-nonce', null, 'https://verifier.example/response']))
  .digest();
const transcript = cborEncode(DataItem.fromData([null, null, ['OpenID4VPHandover', new Uint8Array(handover)]]));
const request = DeviceRequest.from('1.0', [
  { itemsRequestData: { docType: 'eu.europa.ec.av.1', nameSpaces: new Map([['eu.europa.ec.av.1', new Map([['age_over_18', false]])]]) } },
]);
const response = await DeviceResponse.from(new MDoc([document]))
  .usingDeviceRequest(request)
  .usingSessionTranscriptBytes(transcript)
  .authenticateWithSignature(deviceJwk, 'ES256')
  .sign(context(deviceJwk));
const encoded = response.encode();
const once = async () => {
  let failed;
  await new Verifier().verifyDeviceResponse(
    {
      encodedDeviceResponse: encoded,
      encodedSessionTranscript: transcript,
      trustedCertificates: [der],
      onCheck: (c) => {
        if (c.status === 'FAILED') failed = c.check;
      },
    },
    context(issuerJwk),
  );
  if (failed) throw new Error(failed);
};
await printPerSecond(seconds, once);
