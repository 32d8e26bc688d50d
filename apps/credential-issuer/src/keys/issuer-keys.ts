import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import { ensureSigningKey, type KeyEncryption, rewrapSigningKeys } from '@svc/signing-keys';
import type { Config } from '../config.js';

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
/** The issuer's ES256 key for SD-JWT VCs: `kid` names it in the JWT VC issuer metadata. */
export interface JwtSigningKey {
  kid: string;
  privateKey: KeyObject;
}

export class IssuerKeys {
  private cached: { key: IssuerKey; at: number } | undefined;
  private cachedJwt: { key: JwtSigningKey; at: number } | undefined;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly keys: KeyEncryption,
    private readonly clock: Clock,
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

  /** The ES256 key new SD-JWT VCs are signed with (made on first use, rotated with the BBS key by `keys:rotate`). */
  async jwtSigner(): Promise<JwtSigningKey> {
    if (this.cachedJwt && this.clock.now().getTime() - this.cachedJwt.at < this.refreshMs) return this.cachedJwt.key;
    const row = await this.newestOrFirst('ES256');
    if (this.keys.needsRewrap(row.privateKey)) await rewrapSigningKeys({ db: this.db, keys: this.keys }, 'credential-issuer');
    const jwk = this.keys.open<Record<string, string>>(row.privateKey, row.kid);
    const key = { kid: row.kid, privateKey: createPrivateKey({ key: jwk, format: 'jwk' }) };
    this.cachedJwt = { key, at: this.clock.now().getTime() };
    return key;
  }

  /**
   * Every ES256 public key this issuer has signed with, retired ones too: an SD-JWT VC keeps
   * verifying after a rotation for as long as it is valid, and only its status says otherwise.
   */
  async jwtPublicKeys(): Promise<Record<string, string>[]> {
    await this.jwtSigner();
    const rows = await this.db.signingKey.findMany({ where: { service: 'credential-issuer', algorithm: 'ES256' }, orderBy: { activatesAt: 'desc' } });
    return rows.map((r) => r.publicKey as Record<string, string>);
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
