import type { DcqlQuery, PresentationFormat } from '@svc/schemas';
import type { TrustAnchors } from './trust.js';

export type CredentialQuery = DcqlQuery['credentials'][number];

/** What one verified presentation holds: who vouches, what it says, until when. */
export interface PresentedCredential {
  format: PresentationFormat;
  /** The SD-JWT VC's `iss`, or the mdoc signer's certificate subject. */
  issuer: string;
  /** Its `vct` or doctype. */
  type: string;
  /** The claims as the query's paths read them: for an mdoc, `{<namespace>: {<element>: value}}`. */
  claims: Record<string, unknown>;
  expiresAt: Date | undefined;
  /** For this issuer's own credentials: who vouched for what it says. */
  vouchedBy?: Voucher;
}

/** Who vouched for one of this issuer's credentials: the identity provider (a person's approval), or the asking organization itself (its offer). */
export type Voucher = 'identity_provider' | 'organization';

/** How one of this issuer's credentials finds its record: its status entry, or an mdoc's signature. */
export type OwnReference = { statusList: { listId: string; index: number } } | { signatureDigest: string };

/** What a presentation is checked against: the request, the channel it came by, whom to trust. */
export interface PresentationContext {
  /** This deployment's credential issuer URL: only its own CA vouches for it and for its credential types. */
  issuerUrl: string;
  /** Who vouched for one of this issuer's credentials, refused (issuer_trust) when it is another organization or nobody. */
  ownVoucher: (reference: OwnReference) => Promise<Voucher>;
  /** Whether a DID is one of this issuer's. */
  ownDid: (did: string) => Promise<boolean>;
  query: CredentialQuery;
  nonce: string;
  /** The key binding's expected `aud`: the client id, or `origin:<origin>` over the DC API. */
  audience: string;
  /** The mdoc SessionTranscript (CBOR) of this request and channel. */
  sessionTranscript: Uint8Array;
  anchors: TrustAnchors;
  now: Date;
  /** The Token Status List at `uri` as a signed JWT: this issuer's read without the network, another's fetched (never from an internal address). */
  statusList: (uri: string) => Promise<string>;
  /** A W3C presentation with Data Integrity proofs, checked as POST /presentations/verify checks it. */
  verifyDataIntegrity: (presentation: Record<string, unknown>, options: { challenge: string; domain: string }) => Promise<DataIntegrityVerdict>;
}

/** What the Data Integrity verification says of a presentation and its one credential. */
export interface DataIntegrityVerdict {
  verified: boolean;
  /** The presentation's own proof (the holder's, with challenge and domain). */
  errors: { detail: string }[];
  credentialResults: { verified: boolean; errors: { title: string; detail: string }[] }[];
}

/** One presentation of the vp_token: a string (SD-JWT VC, mdoc) or a JSON object (a W3C presentation). */
export type Presentation = string | Record<string, unknown>;

/** One verifier per format: checks one presentation, throws a Refusal naming the failed check. */
export type FormatVerifier = (presentation: Presentation, context: PresentationContext) => Promise<PresentedCredential>;

/** Every string segment the query's claim paths name: what a wallet may disclose (all, when it names none). */
export function namedSegments(query: CredentialQuery): Set<string> | undefined {
  if (!query.claims) return undefined;
  return new Set(query.claims.flatMap((c) => c.path.filter((s): s is string => typeof s === 'string')));
}
