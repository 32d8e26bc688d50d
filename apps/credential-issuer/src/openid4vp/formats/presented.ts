import type { DcqlQuery, PresentationFormat } from '@svc/schemas';
import type { TrustAnchors } from '../trust.js';

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
}

/** What a presentation is checked against: the request, the channel it came by, whom to trust. */
export interface PresentationContext {
  query: CredentialQuery;
  nonce: string;
  /** The key binding's expected `aud`: the client id, or `origin:<origin>` over the DC API. */
  audience: string;
  /** The mdoc SessionTranscript (CBOR) of this request and channel. */
  sessionTranscript: Uint8Array;
  anchors: TrustAnchors;
  now: Date;
  /** An SD-JWT VC status list this issuer publishes, read without the network; undefined for another issuer's. */
  ownStatusList: (uri: string) => Promise<string | undefined>;
}

/** One verifier per format: checks one presentation, throws a Refusal naming the failed check. */
export type FormatVerifier = (presentation: string, context: PresentationContext) => Promise<PresentedCredential>;

/** Every string segment the query's claim paths name: what a wallet may disclose (all, when it names none). */
export function namedSegments(query: CredentialQuery): Set<string> | undefined {
  if (!query.claims) return undefined;
  return new Set(query.claims.flatMap((c) => c.path.filter((s): s is string => typeof s === 'string')));
}
