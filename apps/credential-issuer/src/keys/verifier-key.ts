import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { KeyEncryption } from '@svc/signing-keys';
import type { JWK } from 'jose';
import { certifyKey, type JsonWebKey } from './certificates.js';
import type { IssuerCa } from './issuer-ca.js';
import { loadedOnce, storedOnce } from './stored-once.js';

const KID = 'credential-issuer-verifier';
/** How long the certificate made on embedded defaults lasts (the CA/Browser Forum's ceiling for a leaf); VERIFIER_CERT replaces it. */
const CERTIFICATE_DAYS = 397;

/** The key that signs presentation requests, and the certificate chain wallets check it by. */
export interface VerifierSigner {
  privateKey: KeyObject;
  /** Leaf first, base64 DER, no root: the request object's `x5c`. */
  x5c: string[];
  /** OpenID4VP 1.0 §5.9.3: `x509_hash:` and the base64url SHA-256 of the leaf's DER. */
  clientId: string;
}

export interface VerifierKeySettings {
  /** VERIFIER_CERT (leaf first, PEM, the chain up to but not including a root) and VERIFIER_KEY (its PKCS#8 key). */
  given: { certificatesPem: string; privateKeyPem: string } | undefined;
  publicUrl: string;
  commonName: string;
  country: string;
}

const clientIdOf = (leafBase64: string) => `x509_hash:${createHash('sha256').update(Buffer.from(leafBase64, 'base64')).digest('base64url')}`;

/** Every certificate of a PEM bundle, as base64 DER. */
export function pemCertificates(pem: string): string[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((m) => m[1]!.replace(/\s+/g, ''));
}

/**
 * The verifier's signing key (OpenID4VP request objects): the operator's, or a P-256 key made on
 * the first start, certified as a reader by the issuer CA and kept, the same on every replica, so
 * the `client_id` a wallet sees does not change between requests. Loaded once.
 */
export class VerifierKey {
  /** The key and its chain, loaded once. */
  readonly signer = loadedOnce(() => this.load());

  constructor(private readonly deps: { db: Db; keys: KeyEncryption; ca: IssuerCa; clock: Clock; settings: VerifierKeySettings }) {}

  private async load(): Promise<VerifierSigner> {
    const { given } = this.deps.settings;
    if (given) {
      const x5c = pemCertificates(given.certificatesPem);
      return { privateKey: createPrivateKey(given.privateKeyPem), x5c, clientId: clientIdOf(x5c[0]!) };
    }
    const stored = await storedOnce<{ x5c: string[] }>({ db: this.deps.db, keys: this.deps.keys }, KID, 'ES256-verifier', async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const ca = await this.deps.ca.authority();
      const now = this.deps.clock.now();
      const leaf = await certifyKey(ca, {
        publicKeyJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey,
        issuerUrl: this.deps.settings.publicUrl,
        commonName: this.deps.settings.commonName,
        country: this.deps.settings.country,
        notBefore: new Date(now.getTime() - 24 * 3600 * 1000),
        notAfter: new Date(now.getTime() + CERTIFICATE_DAYS * 24 * 3600 * 1000),
        usage: 'reader',
      });
      return { publicPart: { x5c: [leaf, ...ca.chainAfterLeaf] }, privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey };
    });
    const x5c = stored.publicPart.x5c;
    return { privateKey: createPrivateKey({ key: stored.privateJwk as JWK as never, format: 'jwk' }), x5c, clientId: clientIdOf(x5c[0]!) };
  }
}

/** VERIFIER_CERT and VERIFIER_KEY as the configuration checks them: a readable chain whose leaf the key belongs to. */
export function verifierKeyProblem(certificatesPem: string, privateKeyPem: string): string | undefined {
  const certificates = pemCertificates(certificatesPem);
  if (certificates.length === 0) return 'VERIFIER_CERT: not a PEM certificate';
  let leaf: X509Certificate;
  try {
    leaf = new X509Certificate(Buffer.from(certificates[0]!, 'base64'));
  } catch {
    return 'VERIFIER_CERT: not a readable PEM certificate';
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKeyPem);
  } catch {
    return 'VERIFIER_KEY: not a readable PEM private key';
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') return 'VERIFIER_KEY: must be a P-256 (prime256v1) key';
  if (!leaf.checkPrivateKey(key)) return 'VERIFIER_KEY: not the key of the first certificate of VERIFIER_CERT';
  return undefined;
}

/** Why a PEM bundle of certificates cannot be read, if it cannot. */
export function certificatesProblem(pem: string): string | undefined {
  const certificates = pemCertificates(pem);
  if (certificates.length === 0) return 'no PEM certificate in it';
  for (const [i, der] of certificates.entries()) {
    try {
      new X509Certificate(Buffer.from(der, 'base64'));
    } catch {
      return `certificate ${i + 1} is not readable`;
    }
  }
  return undefined;
}
