// Attestation certificates for tests of hardware-attested passkeys: a root an operator could trust
// (PASSKEY_ATTESTATION_ROOTS) and an attestation certificate under it, made with @peculiar/x509.
// The library needs the Reflect metadata polyfill loaded before it.
import 'reflect-metadata';
import { createPrivateKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

export type AttestationCa = Awaited<ReturnType<typeof attestationCa>>;

/** An attestation root and a leaf under it that signs "packed" attestations (WebAuthn §8.2.1's certificate requirements). */
export async function attestationCa(name: string) {
  const crypto = webcrypto as unknown as Crypto;
  x509.cryptoProvider.set(crypto);
  const alg = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const rootKeys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const now = Date.now();
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: '01',
    name: `CN=${name} Root, O=${name}, C=DE`,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 86_400_000 * 365),
    keys: rootKeys,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  const leafKeys = await crypto.subtle.generateKey(alg, true, ['sign', 'verify']);
  const leaf = await x509.X509CertificateGenerator.create({
    serialNumber: '02',
    subject: `CN=${name} Authenticator, OU=Authenticator Attestation, O=${name}, C=DE`,
    issuer: root.subject,
    notBefore: new Date(now - 86_400_000),
    notAfter: new Date(now + 86_400_000 * 365),
    publicKey: leafKeys.publicKey,
    signingKey: rootKeys.privateKey,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(false, undefined, true)],
  });
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey('pkcs8', leafKeys.privateKey));
  return { rootPem: root.toString('pem'), leafDer: Buffer.from(leaf.rawData), leafKey: createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' }) };
}
