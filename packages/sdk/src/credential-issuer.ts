import type { VerifiableCredential, VerifyCredentialResponse } from '@svc/schemas';
import { SvcApiError } from './errors.js';
import { call, type TransportOptions } from './http.js';

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

export interface IssuedCredentialSummary {
  id: string;
  subject_address: string;
  issuer: string;
  claim_names: string[];
  status: 'active' | 'revoked';
  issued_at: string;
  valid_from: string;
  valid_until: string | null;
  revoked_at: string | null;
}

/** The credential issuer (area C): bbs-2023 verifiable credentials for a subject address. */
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
  async issueCredential(credential: Record<string, unknown>, options?: Record<string, unknown>): Promise<VerifiableCredential> {
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
