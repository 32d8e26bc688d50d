import type {
  CreatedPresentationRequest,
  CredentialOfferResponse,
  PresentationResult,
  VerifiableCredential,
  VerifyCredentialResponse,
} from './contract-types.js';
import { SvcApiError } from './errors.js';
import { call, type TransportOptions } from './http.js';
import { type PresentationOutcome, type PresentationRequestInput, presentationRequestBody, toOutcome } from './presentations.js';

/** VC Data Model 2.0 problem details: why a check failed. */
export interface Problem {
  type: string;
  title: string;
  detail: string;
}

/** The W3C VC API verdict, the same whether the credential verified (200) or not (400). */
export interface Verification {
  verified: boolean;
  checks: string[];
  warnings: Problem[];
  errors: Problem[];
}

export interface VerifyOptions {
  checks?: ('proof' | 'validity' | 'status')[];
  expectedProofPurpose?: string;
  domain?: string;
  challenge?: string;
}

/** W3C VC API issue options. */
export interface IssueOptions {
  /** Members every derived credential must disclose, beside the issuer's own. */
  mandatoryPointers?: string[];
  /** `BitstringStatusListEntry`, the issuer's registry entry type, or both (the default). */
  credentialStatus?: { type: string } | { type: string }[];
}

/** A Bitstring Status List as read from the issuer: the signed list and its bits. */
export interface StatusList {
  credential: VerifiableCredential;
  /** Whether the bit at `index` (a credential's statusListIndex) is set: revoked. */
  isSet(index: number): boolean;
}

export interface IssuedCredentialSummary {
  id: string;
  subject_address: string;
  issuer: string;
  claim_names: string[];
  status: 'active' | 'revoked';
  /** `ldp_vc` (bbs-2023), `dc+sd-jwt` (an SD-JWT VC a wallet received) or `mso_mdoc` (an mdoc a wallet received). */
  format: 'ldp_vc' | 'dc+sd-jwt' | 'mso_mdoc';
  /** How many copies a wallet holds (batch issuance, each bound to its own key); revoking the record revokes them all. */
  copies: number;
  /** The wallet's latest word at the notification endpoint, if any. */
  wallet_event: 'credential_accepted' | 'credential_deleted' | 'credential_failure' | null;
  issued_at: string;
  valid_from: string;
  valid_until: string | null;
  revoked_at: string | null;
}

/** The credential issuer: bbs-2023 verifiable credentials for a subject address. */
export class CredentialIssuerClient {
  constructor(private readonly options: TransportOptions & { baseUrl: string; apiToken: string }) {}

  private get headers() {
    return { 'x-api-token': this.options.apiToken };
  }

  /** The spec's request: claims about an EIP-55 subject address. */
  async issue(input: { subjectAddress: string; claims: Record<string, unknown>; validUntil?: string }): Promise<VerifiableCredential> {
    const json = { subject_address: input.subjectAddress, claims: input.claims, ...(input.validUntil ? { valid_until: input.validUntil } : {}) };
    return (
      await call<{ message: string; credential: VerifiableCredential }>(
        this.options.baseUrl,
        '/credentials/issue',
        { json, headers: this.headers },
        this.options,
      )
    ).body.credential;
  }

  /** The W3C VC API request: an unsigned credential, signed as given. */
  async issueCredential(credential: Record<string, unknown>, options?: IssueOptions): Promise<VerifiableCredential> {
    return (
      await call<{ verifiableCredential: VerifiableCredential }>(
        this.options.baseUrl,
        '/credentials/issue',
        { json: { credential, ...(options ? { options } : {}) }, headers: this.headers },
        this.options,
      )
    ).body.verifiableCredential;
  }

  /** Proof, validity window and revocation; a failing credential answers `verified: false` with reasons. */
  async verify(credential: Record<string, unknown>): Promise<VerifyCredentialResponse> {
    return (await call<VerifyCredentialResponse>(this.options.baseUrl, '/credentials/verify', { json: { credential }, headers: this.headers }, this.options))
      .body;
  }

  /**
   * The W3C VC API verify: every failing check as problem details. A credential that does not
   * verify is a verdict, not an exception (the service answers it with a 400).
   */
  async verifyCredential(verifiableCredential: Record<string, unknown>, options?: VerifyOptions): Promise<Verification> {
    try {
      return (
        await call<Verification>(
          this.options.baseUrl,
          '/credentials/verify',
          { json: { verifiableCredential, ...(options ? { options } : {}) }, headers: this.headers },
          this.options,
        )
      ).body;
    } catch (err) {
      if (err instanceof SvcApiError && err.error === 'verification_failed') {
        const { verified, checks, warnings, errors } = err.body as Verification;
        return { verified, checks, warnings, errors };
      }
      throw err;
    }
  }

  /**
   * The W3C VC API presentation verify: the holder's proof (for `challenge`, and `domain` when
   * given) and each credential inside; a verdict whatever it is.
   */
  async verifyPresentation(
    verifiablePresentation: Record<string, unknown>,
    options: { challenge: string; domain?: string },
  ): Promise<Verification & { credentialResults: { id?: string; verified: boolean; errors: Problem[] }[] }> {
    return (
      await call<Verification & { credentialResults: { id?: string; verified: boolean; errors: Problem[] }[] }>(
        this.options.baseUrl,
        '/presentations/verify',
        { json: { verifiablePresentation, options }, headers: this.headers },
        this.options,
      )
    ).body;
  }

  /** The W3C VC API derive (a holder's step): a credential disclosing what `selectivePointers` name, plus the issuer's mandatory members. */
  async derive(verifiableCredential: Record<string, unknown>, selectivePointers: string[]): Promise<VerifiableCredential> {
    return (
      await call<{ verifiableCredential: VerifiableCredential }>(
        this.options.baseUrl,
        '/credentials/derive',
        { json: { verifiableCredential, options: { selectivePointers } }, headers: this.headers },
        this.options,
      )
    ).body.verifiableCredential;
  }

  /**
   * An offer of a credential for a person's wallet (OpenID4VCI 1.0, pre-authorized code; `…_sd_jwt`
   * an SD-JWT VC, `…_ldp_vc` a W3C credential with a bbs-2023 proof): show
   * `offer_link` as a QR code, and give the person `tx_code` on another channel (`txCode: false`
   * makes an offer without one: whoever sees the link takes it). One use, 300 s. The credential it
   * becomes is listed and revoked like any other.
   */
  async offer(input: {
    configurationId: `${'verified_human' | 'age_over' | 'kyc'}_${'sd_jwt' | 'ldp_vc'}`;
    claims: Record<string, unknown>;
    subjectAddress?: string;
    txCode?: boolean;
  }): Promise<CredentialOfferResponse> {
    const json = {
      credential_configuration_id: input.configurationId,
      claims: input.claims,
      ...(input.subjectAddress ? { subject_address: input.subjectAddress } : {}),
      ...(input.txCode === undefined ? {} : { tx_code: input.txCode }),
    };
    return (await call<CredentialOfferResponse>(this.options.baseUrl, '/credential-offers', { json, headers: this.headers }, this.options)).body;
  }

  /**
   * Asks a person's wallet for presets (OpenID4VP 1.0, needs `presentations:verify`): show
   * `request_link` as a QR code, or, with `expectedOrigins`, hand `dc_api` to
   * `navigator.credentials.get({digital: {requests: [dc_api]}})` in your page. Open 300 s.
   */
  async requestPresentation(input: PresentationRequestInput): Promise<CreatedPresentationRequest> {
    return (
      await call<CreatedPresentationRequest>(
        this.options.baseUrl,
        '/presentation-requests',
        { json: presentationRequestBody(input), headers: this.headers },
        this.options,
      )
    ).body;
  }

  /**
   * Where a request stands: poll it (or take the `presentation.*` webhook) until it is no longer
   * `pending`. A request made with `redirectUri` and answered on the person's device is read with
   * the `response_code` the redirect brought to your page.
   */
  async presentationResult(id: string, options: { responseCode?: string } = {}): Promise<PresentationOutcome> {
    const query = options.responseCode ? `?${new URLSearchParams({ response_code: options.responseCode })}` : '';
    const path = `/presentation-requests/${encodeURIComponent(id)}${query}`;
    return toOutcome((await call<PresentationResult>(this.options.baseUrl, path, { headers: this.headers }, this.options)).body);
  }

  /**
   * What your page got from the Digital Credentials API (the credential's `data`), relayed from
   * your backend with the page's origin as your server knows it, never as the page says it. A
   * presentation that fails a check is a `failed` outcome, not an exception; an origin the request
   * did not name, or a request already answered or expired, throws.
   */
  async relayDcApiResponse(id: string, input: { response: { response: string }; origin: string }): Promise<PresentationOutcome> {
    const path = `/presentation-requests/${encodeURIComponent(id)}/dc-api-response`;
    const json = { response: input.response, origin: input.origin };
    return toOutcome((await call<PresentationResult>(this.options.baseUrl, path, { json, headers: this.headers }, this.options)).body);
  }

  async revoke(credentialId: string): Promise<{ revoked: true; credential_id: string; revoked_at: string }> {
    return (
      await call<{ revoked: true; credential_id: string; revoked_at: string }>(
        this.options.baseUrl,
        '/credentials/revoke',
        { json: { credential_id: credentialId }, headers: this.headers },
        this.options,
      )
    ).body;
  }

  async status(credentialId: string): Promise<{ credential_id: string; revoked: boolean; revoked_at: string | null }> {
    return (
      await call<{ credential_id: string; revoked: boolean; revoked_at: string | null }>(
        this.options.baseUrl,
        `/credentials/${encodeURIComponent(credentialId)}/status`,
        { headers: this.headers },
        this.options,
      )
    ).body;
  }

  /**
   * One of the issuer's public Bitstring Status Lists (no token needed), named by the
   * statusListCredential URL a credential carries or by its id, always read from this client's
   * baseUrl. Its bbs-2023 proof is not checked here: verifyCredential checks revocation on the
   * service, or hand `credential` to a bbs-2023 verifier.
   */
  async statusList(urlOrId: string): Promise<StatusList> {
    const id = urlOrId.split('/').pop() ?? '';
    const credential = (await call<VerifiableCredential>(this.options.baseUrl, `/status-lists/${encodeURIComponent(id)}`, {}, this.options)).body;
    const encoded = String((credential.credentialSubject as { encodedList?: unknown }).encodedList ?? '');
    const bits = await gunzip(fromBase64url(encoded.replace(/^u/, '')));
    return { credential, isSet: (index) => ((bits[index >> 3] ?? 0) & (0x80 >> (index & 7))) !== 0 };
  }

  async list(
    query: { subjectAddress?: string; limit?: number; cursor?: string } = {},
  ): Promise<{ items: IssuedCredentialSummary[]; next_cursor: string | null }> {
    const params = new URLSearchParams();
    if (query.subjectAddress) params.set('subject_address', query.subjectAddress);
    if (query.limit) params.set('limit', String(query.limit));
    if (query.cursor) params.set('cursor', query.cursor);
    return (
      await call<{ items: IssuedCredentialSummary[]; next_cursor: string | null }>(
        this.options.baseUrl,
        `/credentials?${params}`,
        { headers: this.headers },
        this.options,
      )
    ).body;
  }
}

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

// Web streams, so the client runs in browsers as in Node.js.
async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
