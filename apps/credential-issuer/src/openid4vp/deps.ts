import type { OutboundFetch } from '@svc/http';
import type { CoreDeps } from '@svc/runtime';
import type { KeyEncryption } from '@svc/signing-keys';
import type { Config } from '../config.js';
import type { ApiTokenDeps } from '../http/require-token.js';
import type { IssuerCa } from '../keys/issuer-ca.js';
import type { IssuerKeys } from '../keys/issuer-keys.js';
import type { VerifierKey } from '../keys/verifier-key.js';
import type { SigningPool } from '../vc/signing-pool.js';
import type { TrustedIssuers } from '../verification/trusted-issuers.js';

/** What the OpenID4VP verifier needs from the app. */
export interface Openid4vpDeps extends ApiTokenDeps, Pick<CoreDeps, 'db' | 'clock' | 'logger'> {
  config: Config;
  /** Signs request objects; its certificate is the client id. */
  verifierKey: VerifierKey;
  /** Its certificate is a root presentations of this issuer's credentials chain to. */
  issuerCa: IssuerCa;
  /** Signs this issuer's Token Status Lists, read without the network when its credentials are presented. */
  issuerKeys: IssuerKeys;
  /** Seals each request's ephemeral response key at rest. */
  keyEncryption: KeyEncryption;
  /** W3C presentations (ldp_vc): their Data Integrity proofs run in the signing threads, whose DIDs are trusted as POST /presentations/verify trusts them. */
  pool: SigningPool;
  trustedIssuers: TrustedIssuers;
  ownResources: (url: string) => string | undefined;
  /** Other issuers' status lists: never from an internal address (STATUS_LISTS_ALLOW_PRIVATE lifts it, for development). */
  statusListFetch: OutboundFetch;
}
