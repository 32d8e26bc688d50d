/**
 * X.509 for the issuer CA and the certificates of its signing keys (HAIP 1.0: verifiers find the
 * issuer's key through an `x5c` chain; ISO/IEC 18013-5 Annex B for mdoc verifiers), made and read
 * with @peculiar/x509, never by hand. One curve, P-256 with ECDSA SHA-256, for the CA and its keys.
 */
// @peculiar/x509 needs the Reflect metadata API before it loads.
import 'reflect-metadata';
import { randomBytes, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0]);

type CryptoKey = webcrypto.CryptoKey;
/** A JSON Web Key as Web Crypto reads and writes it. */
export type JsonWebKey = webcrypto.JsonWebKey;

const ES256 = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;

/** ISO/IEC 18013-5 Annex B: the extended key usages of a document signer (mdoc issuer) and of a reader (a verifier) certificate. */
const EXTENDED_KEY_USAGES = { 'document signer': '1.0.18013.5.1.2', reader: '1.0.18013.5.1.6' } as const;

/** The issuer CA as the signer of leaf certificates: its certificate, its key, and what follows a leaf in `x5c`. */
export interface CertificateAuthority {
  certificate: x509.X509Certificate;
  privateKey: CryptoKey;
  /** The CA's own certificate after a leaf, when it is not a self-signed root (`x5c` never carries the root). */
  chainAfterLeaf: string[];
}

/** A positive serial number of 128 random bits (RFC 5280 §4.1.2.2: unique per CA, at most 20 octets). */
const serialNumber = () => {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString('hex');
};

/** A distinguished name with `C` and `CN`, escaped as RFC 4514 asks. */
const distinguishedName = (commonName: string, country: string) => `CN=${commonName.replace(/([,+"\\<>;=])/g, '\\$1')}, C=${country}`;

const isSelfSigned = (certificate: x509.X509Certificate) => certificate.subject === certificate.issuer;

/** A certificate and PKCS#8 key given in configuration (loadConfig has checked that they belong together). */
export async function authorityFromPem(certificatePem: string, privateKeyPem: string): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certificatePem);
  const privateKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(privateKeyPem), ES256, false, ['sign']);
  return { certificate, privateKey, chainAfterLeaf: isSelfSigned(certificate) ? [] : [certificate.toString('base64')] };
}

/** A self-signed root for a deployment without one of its own: ten years, allowed to sign end-entity certificates only. */
export async function makeAuthority(input: { name: string; country: string; now: Date }): Promise<{ certificatePem: string; privateKeyJwk: JsonWebKey }> {
  const keys = (await webcrypto.subtle.generateKey(ES256, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serialNumber(),
    name: distinguishedName(input.name, input.country),
    notBefore: input.now,
    notAfter: new Date(input.now.getTime() + 10 * 365 * 24 * 3600 * 1000),
    keys,
    signingAlgorithm: ES256,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certificatePem: certificate.toString('pem'), privateKeyJwk: await webcrypto.subtle.exportKey('jwk', keys.privateKey) };
}

/** The CA from its stored form (makeAuthority's). */
export async function authorityFromJwk(certificatePem: string, privateKeyJwk: JsonWebKey): Promise<CertificateAuthority> {
  const certificate = new x509.X509Certificate(certificatePem);
  const privateKey = await webcrypto.subtle.importKey('jwk', privateKeyJwk, ES256, false, ['sign']);
  return { certificate, privateKey, chainAfterLeaf: isSelfSigned(certificate) ? [] : [certificate.toString('base64')] };
}

export interface LeafRequest {
  /** The signing key's public half. */
  publicKeyJwk: JsonWebKey;
  /** The credential issuer URL: a SAN URI, so a credential's `iss` matches its certificate. */
  issuerUrl: string;
  commonName: string;
  country: string;
  notBefore: Date;
  notAfter: Date;
  /** A key that signs credentials (the default), or the verifier's, which signs presentation requests. */
  usage?: keyof typeof EXTENDED_KEY_USAGES;
}

/** A document signer (or reader) certificate for one of the issuer's keys (ISO/IEC 18013-5 Annex B), base64 DER as `x5c` carries it. */
export async function certifyKey(ca: CertificateAuthority, leaf: LeafRequest): Promise<string> {
  const publicKey = await webcrypto.subtle.importKey('jwk', { kty: 'EC', crv: 'P-256', x: leaf.publicKeyJwk.x, y: leaf.publicKeyJwk.y }, ES256, true, [
    'verify',
  ]);
  const certificate = await x509.X509CertificateGenerator.create({
    serialNumber: serialNumber(),
    subject: distinguishedName(leaf.commonName, leaf.country),
    issuer: ca.certificate.subject,
    notBefore: leaf.notBefore,
    // Never past the CA: a chain is only as valid as its shortest-lived certificate.
    notAfter: new Date(Math.min(leaf.notAfter.getTime(), ca.certificate.notAfter.getTime())),
    signingKey: ca.privateKey,
    publicKey,
    signingAlgorithm: ES256,
    extensions: [
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([EXTENDED_KEY_USAGES[leaf.usage ?? 'document signer']], true),
      // An issuer's key names the issuer URL, so a credential's `iss` matches it; a reader's never does, so it can never pass for the issuer's.
      ...(leaf.usage === 'reader' ? [] : [new x509.SubjectAlternativeNameExtension([{ type: 'url', value: leaf.issuerUrl }])]),
      await x509.AuthorityKeyIdentifierExtension.create(ca.certificate, false),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
    ],
  });
  return certificate.toString('base64');
}

/**
 * Whether `leafBase64` still serves: signed by this CA, naming `issuerUrl` (a reader's certificate
 * names none: undefined), and valid until at least `validUntil` (every credential signed under it
 * must expire before it does).
 */
export async function leafStillServes(ca: CertificateAuthority, leafBase64: string, issuerUrl: string | undefined, validUntil: Date): Promise<boolean> {
  let leaf: x509.X509Certificate;
  try {
    leaf = new x509.X509Certificate(leafBase64);
  } catch {
    return false;
  }
  // Short of what is wanted, unless the CA itself ends first (what it signs is capped at its certificate's end).
  if (leaf.notAfter < validUntil && leaf.notAfter < ca.certificate.notAfter) return false;
  if (leaf.issuer !== ca.certificate.subject || !(await leaf.verify({ publicKey: ca.certificate, signatureOnly: true }))) return false;
  if (issuerUrl === undefined) return true;
  const names = leaf.getExtension(x509.SubjectAlternativeNameExtension)?.names.toJSON() ?? [];
  return names.some((n) => n.type === 'url' && n.value === issuerUrl);
}

export const pemOf = (ca: CertificateAuthority) => ca.certificate.toString('pem');
