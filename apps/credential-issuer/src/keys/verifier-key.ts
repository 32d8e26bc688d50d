import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject, X509Certificate } from 'node:crypto';
import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { KeyEncryption } from '@svc/signing-keys';
import type { JWK } from 'jose';
import { certifyKey, type JsonWebKey, leafStillServes } from './certificates.js';
import type { IssuerCa } from './issuer-ca.js';
import { storedOnce } from './stored-once.js';

const KID = 'credential-issuer-verifier';
const DAY_MS = 24 * 3600 * 1000;
/** How long the certificate made on embedded defaults lasts (the CA/Browser Forum's ceiling for a leaf); VERIFIER_CERT replaces it. */
const CERTIFICATE_DAYS = 397;
/** A month before it ends, the certificate made here is renewed: the same key, certified again. */
const RENEW_WITHIN_MS = 30 * DAY_MS;
/** How often a replica reads the stored certificate again, so that one another replica renewed is everyone's within minutes. */
const REREAD_MS = 10 * 60 * 1000;

/** The key that signs presentation requests, and the certificate chain wallets check it by. */
export interface VerifierSigner {
  privateKey: KeyObject;
  /** Leaf first, base64 DER, no root: the request object's `x5c`. */
  x5c: string[];
  /** OpenID4VP 1.0 §5.9.3: `x509_hash:` and the base64url SHA-256 of the leaf's DER. */
  clientId: string;
  /**
   * The chain whose leaf `clientId` hashes: this one's, or the one it renewed (the same key), so a
   * request made just before a renewal is still signed as its link names it.
   */
  chainOf(clientId: string): string[] | undefined;
}

export interface VerifierKeySettings {
  /** VERIFIER_CERT (leaf first, PEM, the chain up to but not including a root) and VERIFIER_KEY (its PKCS#8 key). */
  given: { certificatesPem: string; privateKeyPem: string } | undefined;
  publicUrl: string;
  commonName: string;
  country: string;
}

/** As stored: the chain, and the one it renewed. */
interface StoredChains {
  x5c: string[];
  previousX5c?: string[];
}

const clientIdOf = (leafBase64: string) => `x509_hash:${createHash('sha256').update(Buffer.from(leafBase64, 'base64')).digest('base64url')}`;

/** Every certificate of a PEM bundle, as base64 DER. */
export function pemCertificates(pem: string): string[] {
  return [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/g)].map((m) => m[1]!.replace(/\s+/g, ''));
}

function signerOf(privateKey: KeyObject, chains: StoredChains): VerifierSigner {
  const clientId = clientIdOf(chains.x5c[0]!);
  const previous = chains.previousX5c;
  const previousId = previous && clientIdOf(previous[0]!);
  return { privateKey, x5c: chains.x5c, clientId, chainOf: (id) => (id === clientId ? chains.x5c : id === previousId ? previous : undefined) };
}

/**
 * The verifier's signing key (OpenID4VP request objects): the operator's, or a P-256 key made on
 * the first start, certified as a reader by the issuer CA and kept, the same on every replica, so
 * the `client_id` a wallet sees does not change between requests. A month before that certificate
 * ends (or when another CA is configured), the same key is certified again; every replica
 * reads the stored chain again every ten minutes.
 */
export class VerifierKey {
  private loaded: { signer: Promise<VerifierSigner>; until: number } | undefined;

  constructor(private readonly deps: { db: Db; keys: KeyEncryption; ca: IssuerCa; clock: Clock; settings: VerifierKeySettings }) {}

  /** The key and its chain: read once, and again after REREAD_MS (a failed read is not kept). */
  signer(): Promise<VerifierSigner> {
    const now = this.deps.clock.now().getTime();
    if (this.loaded && now < this.loaded.until) return this.loaded.signer;
    const signer = this.load().catch((err: unknown) => {
      this.loaded = undefined;
      throw err;
    });
    this.loaded = { signer, until: this.deps.settings.given ? Number.POSITIVE_INFINITY : now + REREAD_MS };
    return signer;
  }

  /**
   * The signer as a request made with `clientId` names it: the chain that renewed certificate
   * hashes to, if the current one renewed it (the key is the same); otherwise the current one.
   */
  async signerFor(clientId: string | undefined): Promise<VerifierSigner> {
    const signer = await this.signer();
    const x5c = clientId === undefined || clientId === signer.clientId ? undefined : signer.chainOf(clientId);
    return x5c ? { ...signer, x5c, clientId: clientId! } : signer;
  }

  private async load(): Promise<VerifierSigner> {
    const { given } = this.deps.settings;
    if (given) return signerOf(createPrivateKey(given.privateKeyPem), { x5c: pemCertificates(given.certificatesPem) });
    const stored = await storedOnce<StoredChains>({ db: this.deps.db, keys: this.deps.keys }, KID, 'ES256-verifier', async () => {
      const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      return { publicPart: { x5c: await this.certify(publicKey) }, privateJwk: privateKey.export({ format: 'jwk' }) as JsonWebKey };
    });
    const privateKey = createPrivateKey({ key: stored.privateJwk as JWK as never, format: 'jwk' });
    const ca = await this.deps.ca.authority();
    const renewBy = new Date(this.deps.clock.now().getTime() + RENEW_WITHIN_MS);
    if (await leafStillServes(ca, stored.publicPart.x5c[0]!, undefined, renewBy)) return signerOf(privateKey, stored.publicPart);
    const renewed: StoredChains = { x5c: await this.certify(createPublicKey(privateKey)), previousX5c: stored.publicPart.x5c };
    // Stored only over the chain read: of replicas that renew at once, the first one's chain is
    // everyone's, so no replica makes requests under a client_id the others do not know.
    const { count } = await this.deps.db.signingKey.updateMany({
      where: { kid: KID, publicKey: { equals: stored.publicPart as never } },
      data: { publicKey: renewed as never },
    });
    if (count === 1) return signerOf(privateKey, renewed);
    const row = await this.deps.db.signingKey.findUniqueOrThrow({ where: { kid: KID } });
    return signerOf(privateKey, row.publicKey as unknown as StoredChains);
  }

  /** A reader's certificate of `publicKey` under the issuer CA, for CERTIFICATE_DAYS: the chain, leaf first. */
  private async certify(publicKey: KeyObject): Promise<string[]> {
    const ca = await this.deps.ca.authority();
    const now = this.deps.clock.now();
    const leaf = await certifyKey(ca, {
      publicKeyJwk: publicKey.export({ format: 'jwk' }) as JsonWebKey,
      issuerUrl: this.deps.settings.publicUrl,
      commonName: this.deps.settings.commonName,
      country: this.deps.settings.country,
      notBefore: new Date(now.getTime() - DAY_MS),
      notAfter: new Date(now.getTime() + CERTIFICATE_DAYS * DAY_MS),
      usage: 'reader',
    });
    return [leaf, ...ca.chainAfterLeaf];
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
