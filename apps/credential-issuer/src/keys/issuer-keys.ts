import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import { ensureSigningKey, type KeyEncryption, rewrapSigningKeys } from '@svc/signing-keys';
import type { Config } from '../config.js';
import { certifyKey, type JsonWebKey, leafStillServes } from './certificates.js';
import type { IssuerCa } from './issuer-ca.js';

export interface IssuerKey {
  /** The verification method: `did:key:<multibase>#<multibase>`. */
  id: string;
  /** The issuer DID. */
  controller: string;
  publicKeyMultibase: string;
  secretKeyMultibase: string;
}

function fromMultibase(publicKeyMultibase: string, secretKeyMultibase: string): IssuerKey {
  const controller = `did:key:${publicKeyMultibase}`;
  return { id: `${controller}#${publicKeyMultibase}`, controller, publicKeyMultibase, secretKeyMultibase };
}

/**
 * The key new credentials are signed with: from configuration when given, otherwise the newest
 * active key in the database, generated on first start. Read again at most every `refreshMs`, so
 * `keys:rotate` takes effect on every replica within that time. Old keys are did:keys: what they
 * signed keeps verifying without the database.
 */
/**
 * The issuer's ES256 key for SD-JWT VCs, Status List Tokens and mdocs: `kid` names it in the JWT VC
 * issuer metadata, `x5c` is its certificate chain under the issuer CA (leaf first, no root).
 */
export interface JwtSigningKey {
  kid: string;
  privateKey: KeyObject;
  /** The same private key as a JWK, for the mdoc library's COSE signing. */
  privateJwk: JsonWebKey;
  x5c: string[];
  /** When the key's certificate ends: nothing signed with it may be valid longer. */
  certifiedUntil: Date;
}

/** How the issuer's keys are certified: by which CA, and for how long each certificate must outlive what it signs. */
export interface KeyCertification {
  ca: IssuerCa;
  /** The longest a credential signed now may live: a leaf must be valid at least that long from now. */
  credentialLifetimeMs: number;
}

const DAY_MS = 24 * 3600 * 1000;
/** A quarter year beyond the longest credential, at most ISO/IEC 18013-5's 457 days for a document signer certificate. */
const LEAF_MARGIN_MS = 90 * DAY_MS;
const LEAF_MAX_MS = 457 * DAY_MS;
/** A leaf is renewed once less than a month is left of what a new one would cover. */
const RENEW_WITHIN_MS = 30 * DAY_MS;
/**
 * A day before its making: what is signed under it with times rounded down to the hour (so that
 * no two credentials' times tell them apart by the second), and verifiers whose clock runs behind, fall inside it.
 */
const BACKDATE_MS = DAY_MS;

/** An ES256 public key as stored: a JWK, with the certificate of its latest leaf once it has one. */
type PublicJwk = JsonWebKey & { kid?: string; x5c?: string[] };

export class IssuerKeys {
  private cached: { key: IssuerKey; at: number } | undefined;
  private cachedJwt: { key: JwtSigningKey; at: number } | undefined;
  private cachedJwks: { keys: PublicJwk[]; signer: JwtSigningKey } | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: KeyEncryption,
    private readonly clock: Clock,
    private readonly certification: KeyCertification,
    private readonly refreshMs = 10_000,
  ) {}

  async current(): Promise<IssuerKey> {
    if (this.config.ISSUER_PUBLIC_KEY_MULTIBASE && this.config.ISSUER_SECRET_KEY_MULTIBASE) {
      return fromMultibase(this.config.ISSUER_PUBLIC_KEY_MULTIBASE, this.config.ISSUER_SECRET_KEY_MULTIBASE);
    }
    if (this.cached && this.clock.now().getTime() - this.cached.at < this.refreshMs) return this.cached.key;
    const row = await this.newestOrFirst('Bls12381G2');
    // Keys stored before encryption at rest (or under a previous KEK) are sealed under the current one.
    if (this.keys.needsRewrap(row.privateKey)) await rewrapSigningKeys({ db: this.db, keys: this.keys }, 'credential-issuer');
    const pub = (row.publicKey as { publicKeyMultibase: string }).publicKeyMultibase;
    const secret = this.keys.open<{ secretKeyMultibase: string }>(row.privateKey, row.kid).secretKeyMultibase;
    const key = fromMultibase(pub, secret);
    this.cached = { key, at: this.clock.now().getTime() };
    return key;
  }

  /**
   * The key behind `did` (the current one or one retired by rotation), to sign that DID's status
   * lists: a verifier requires a list to come from the issuer of the credentials in it.
   */
  async forDid(did: string): Promise<IssuerKey | undefined> {
    const current = await this.current();
    if (current.controller === did) return current;
    const pub = did.slice('did:key:'.length);
    const row = await this.db.signingKey.findFirst({ where: { service: 'credential-issuer', publicKey: { path: ['publicKeyMultibase'], equals: pub } } });
    if (!row) return undefined;
    return fromMultibase(pub, this.keys.open<{ secretKeyMultibase: string }>(row.privateKey, row.kid).secretKeyMultibase);
  }

  /**
   * The ES256 key new SD-JWT VCs, Status List Tokens and mdocs are signed with (made on first use,
   * rotated with the BBS key by `keys:rotate`), with its certificate: made when the key has none,
   * when another CA or issuer URL is configured, or when too little of its validity is left.
   */
  async jwtSigner(): Promise<JwtSigningKey> {
    if (this.cachedJwt && this.clock.now().getTime() - this.cachedJwt.at < this.refreshMs) return this.cachedJwt.key;
    const row = await this.newestOrFirst('ES256');
    if (this.keys.needsRewrap(row.privateKey)) await rewrapSigningKeys({ db: this.db, keys: this.keys }, 'credential-issuer');
    const privateJwk = this.keys.open<JsonWebKey>(row.privateKey, row.kid);
    const { x5c, certifiedUntil } = await this.certified(row.kid, row.publicKey as PublicJwk);
    const key = { kid: row.kid, privateKey: createPrivateKey({ key: privateJwk as Record<string, string>, format: 'jwk' }), privateJwk, x5c, certifiedUntil };
    this.cachedJwt = { key, at: this.clock.now().getTime() };
    return key;
  }

  /** The key's chain, its leaf kept in the key's public JWK (`x5c`, RFC 7517 §4.7), so the JWT VC issuer metadata shows it too. */
  private async certified(kid: string, publicKey: PublicJwk): Promise<{ x5c: string[]; certifiedUntil: Date }> {
    const ca = await this.certification.ca.authority();
    const now = this.clock.now().getTime();
    const issuerUrl = this.config.publicUrl;
    // What a leaf made now would cover: every credential signed now, and a margin, within the limit.
    const wanted = new Date(Math.min(now + this.certification.credentialLifetimeMs + LEAF_MARGIN_MS, now + LEAF_MAX_MS - BACKDATE_MS));
    const leaf = publicKey.x5c?.[0];
    if (leaf && (await leafStillServes(ca, leaf, issuerUrl, new Date(wanted.getTime() - RENEW_WITHIN_MS))))
      return { x5c: [leaf, ...ca.chainAfterLeaf], certifiedUntil: new Date(new X509Certificate(Buffer.from(leaf, 'base64')).validTo) };
    const settings = this.certification.ca.settings;
    const renewed = await certifyKey(ca, {
      publicKeyJwk: publicKey,
      issuerUrl,
      commonName: this.config.ISSUER_DISPLAY_NAME,
      country: settings.country,
      notBefore: new Date(now - BACKDATE_MS),
      notAfter: wanted,
    });
    // Replicas that renew at once each keep a valid certificate of the same key; the last one stays.
    const { x5c: _old, ...jwk } = publicKey;
    await this.db.signingKey.update({ where: { kid }, data: { publicKey: { ...(jwk as Record<string, string>), x5c: [renewed] } } });
    return { x5c: [renewed, ...ca.chainAfterLeaf], certifiedUntil: new Date(new X509Certificate(Buffer.from(renewed, 'base64')).validTo) };
  }

  /**
   * Every ES256 public key this issuer has signed with, retired ones too: an SD-JWT VC keeps
   * verifying after a rotation for as long as it is valid, and only its status says otherwise.
   */
  async jwtPublicKeys(): Promise<PublicJwk[]> {
    // Read again whenever the signer is: the set never lacks the key this replica signs with, and
    // the public metadata costs PostgreSQL one read per refresh, not one per request.
    const signer = await this.jwtSigner();
    if (this.cachedJwks?.signer === signer) return this.cachedJwks.keys;
    const rows = await this.db.signingKey.findMany({ where: { service: 'credential-issuer', algorithm: 'ES256' }, orderBy: { activatesAt: 'desc' } });
    const keys = rows.map((r) => r.publicKey as PublicJwk);
    this.cachedJwks = { keys, signer };
    return keys;
  }

  /** The newest active key of `algorithm`; on first start every algorithm's, however many replicas start at once. */
  private async newestOrFirst(algorithm: 'Bls12381G2' | 'ES256') {
    const newest = () =>
      this.db.signingKey.findFirst({
        where: { service: 'credential-issuer', algorithm, status: 'active', activatesAt: { lte: this.clock.now() } },
        orderBy: { activatesAt: 'desc' },
      });
    const row = await newest();
    if (row) return row;
    await ensureSigningKey({ db: this.db, now: () => this.clock.now(), keys: this.keys }, 'credential-issuer');
    return (await newest())!;
  }
}
