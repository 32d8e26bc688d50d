import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import { ensureSigningKey, KEY_ALGORITHMS, type KeyEncryption, rewrapSigningKeys } from '@svc/signing-keys';
import { createPrivateKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, type JWK } from 'jose';

export interface PublishedKey {
  kty: string;
  kid: string;
  alg: string;
  use: 'sig';
  n: string;
  e: string;
}

/** What the server signs with: RS256 unless a client asks for PS256 (FAPI 2.0). */
export type SigningAlgorithm = (typeof KEY_ALGORITHMS)['identity-provider'][number];
export const SIGNING_ALGORITHMS: readonly SigningAlgorithm[] = KEY_ALGORITHMS['identity-provider'];

export interface ActiveSigner {
  kid: string;
  alg: SigningAlgorithm;
  key: KeyObject;
}

interface Snapshot {
  at: number;
  published: PublishedKey[];
  keySet: ReturnType<typeof createLocalJWKSet>;
  signers: Map<SigningAlgorithm, { kid: string; jwk: JWK; activatesAt: Date }>;
}

/**
 * The identity provider's keys from the database, an RSA key of its own for each algorithm (RS256,
 * PS256). Published: every key not past its publish window, so tokens signed before a rotation
 * still verify. Signing with an algorithm: its newest key whose activation time has come (a
 * rotated-in key is published before it signs). Re-read at most every `refreshMs`, so a rotation
 * reaches every replica within that time.
 */
export class SigningKeys {
  private snapshot: Snapshot | undefined;
  /** The re-read under way: concurrent requests past the refresh time share it. */
  private loading: Promise<Snapshot> | undefined;
  private readonly imported = new Map<string, KeyObject>();

  constructor(
    private readonly db: Db,
    private readonly keys: KeyEncryption,
    private readonly clock: Clock,
    private readonly refreshMs = 10_000,
  ) {}

  private readonly now = () => this.clock.now();

  private load(): Promise<Snapshot> {
    if (this.snapshot && this.now().getTime() - this.snapshot.at < this.refreshMs) return Promise.resolve(this.snapshot);
    this.loading ??= this.read().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }

  private async read(): Promise<Snapshot> {
    let now = this.now();
    let rows = await this.rows(now);
    if (SIGNING_ALGORITHMS.some((alg) => !rows.some((r) => r.status === 'active' && r.algorithm === alg))) {
      // First start (or an algorithm added since): make the keys rather than refuse to sign (one per
      // algorithm, however many replicas start at once).
      await ensureSigningKey({ db: this.db, now: this.now, keys: this.keys }, 'identity-provider');
      now = this.now();
      rows = await this.rows(now);
    }
    // Keys stored before encryption at rest (or under a previous KEK) are sealed under the current one.
    if (rows.some((r) => this.keys.needsRewrap(r.privateKey))) await rewrapSigningKeys({ db: this.db, keys: this.keys }, 'identity-provider');
    const signers = new Map<SigningAlgorithm, { kid: string; jwk: JWK; activatesAt: Date }>();
    for (const alg of SIGNING_ALGORITHMS) {
      const newest = (keys: typeof rows) => keys.sort((a, b) => b.activatesAt.getTime() - a.activatesAt.getTime())[0];
      const ofAlg = rows.filter((r) => r.algorithm === alg);
      // None activated yet by this replica's clock (a key just made by a replica whose clock is
      // ahead): its newest active key signs rather than none at all.
      const signing = newest(ofAlg.filter((r) => r.activatesAt <= now)) ?? newest(ofAlg.filter((r) => r.status === 'active'));
      if (signing) signers.set(alg, { kid: signing.kid, jwk: this.keys.open<JWK>(signing.privateKey, signing.kid), activatesAt: signing.activatesAt });
    }
    const published: PublishedKey[] = rows.map((r) => {
      const { kty, n, e } = r.publicKey as { kty: string; n: string; e: string };
      return { kty, kid: r.kid, alg: r.algorithm, use: 'sig', n, e };
    });
    // The same verifier while the published keys are the same: what is cached per verifier (see
    // VerifiedTokens) lives until a key is added or withdrawn.
    const unchanged = this.snapshot && JSON.stringify(this.snapshot.published) === JSON.stringify(published);
    this.snapshot = {
      at: this.now().getTime(),
      published,
      keySet: unchanged ? this.snapshot!.keySet : createLocalJWKSet({ keys: published }),
      signers,
    };
    return this.snapshot;
  }

  private rows(now: Date) {
    return this.db.signingKey.findMany({
      where: { service: 'identity-provider', status: { in: ['active', 'retiring'] }, OR: [{ publishUntil: null }, { publishUntil: { gt: now } }] },
      orderBy: { createdAt: 'asc' },
    });
  }

  async published(): Promise<PublishedKey[]> {
    return (await this.load()).published;
  }

  /** The published keys as a verifier, built once per snapshot rather than per request. */
  async keySet(): Promise<Snapshot['keySet']> {
    return (await this.load()).keySet;
  }

  async signer(alg: SigningAlgorithm = 'RS256'): Promise<ActiveSigner> {
    const signer = (await this.load()).signers.get(alg);
    if (!signer) throw new Error(`no identity-provider ${alg} signing key is active yet`);
    let key = this.imported.get(signer.kid);
    if (!key) {
      key = createPrivateKey({ key: signer.jwk as JsonWebKey, format: 'jwk' });
      this.imported.set(signer.kid, key);
    }
    return { kid: signer.kid, alg, key };
  }

  /** Forget the snapshot, e.g. after a rotation in tests. */
  refresh(): void {
    this.snapshot = undefined;
  }
}
