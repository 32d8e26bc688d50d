import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { KeyEncryption } from '@svc/signing-keys';
import { loadedOnce, storedOnce } from './stored-once.js';
import { authorityFromJwk, authorityFromPem, type CertificateAuthority, makeAuthority } from './certificates.js';

/** Where the CA made on embedded defaults is kept: a row of its own among the issuer's keys, its key sealed like theirs. */
const STORED_CA_KID = 'credential-issuer-ca';
const STORED_CA_ALGORITHM = 'ES256-CA';

export interface IssuerCaSettings {
  /** ISSUER_CA_CERT and ISSUER_CA_KEY, when the operator brings a CA. */
  given: { certificatePem: string; privateKeyPem: string } | undefined;
  /** The CA's `C` (ISO 3166-1 alpha-2), ISSUER_CA_COUNTRY; also the leaves'. */
  country: string;
  /** The CA's `CN` when this service makes it. */
  name: string;
}

/**
 * The CA that certifies the issuer's signing keys: the operator's, or one made on the first start
 * and kept (however many replicas start at once, they all end with the same one). Loaded once.
 */
export class IssuerCa {
  /** The CA, loaded once. */
  readonly authority = loadedOnce(() => this.load());

  constructor(
    private readonly db: Db,
    private readonly keys: KeyEncryption,
    private readonly clock: Clock,
    readonly settings: IssuerCaSettings,
  ) {}

  private async load(): Promise<CertificateAuthority> {
    const { given } = this.settings;
    if (given) return authorityFromPem(given.certificatePem, given.privateKeyPem);
    const stored = await storedOnce<{ certificate: string }>({ db: this.db, keys: this.keys }, STORED_CA_KID, STORED_CA_ALGORITHM, async () => {
      const made = await makeAuthority({ name: this.settings.name, country: this.settings.country, now: this.clock.now() });
      return { publicPart: { certificate: made.certificatePem }, privateJwk: made.privateKeyJwk };
    });
    return authorityFromJwk(stored.publicPart.certificate, stored.privateJwk);
  }
}
