import type { CreatedPresentationRequest, PresentablePreset, PresentationResult } from './contract-types.js';

/** A DCQL query (OpenID4VP 1.0 §6), for what presets do not say. */
export type DcqlQuery = CreatedPresentationRequest['dcql_query'];
export type PresentationFormat = DcqlQuery['credentials'][number]['format'];

/** What to ask a person's wallet for: presets, or a DCQL query of your own. */
export interface PresentationRequestInput {
  presets?: PresentablePreset[];
  dcqlQuery?: DcqlQuery;
  /** A query-engine policy (allOf/anyOf/not of checks) over the presets, or over `<credential query id>.<claim>`. */
  policy?: Record<string, unknown>;
  /** The formats you accept; default all this service verifies. */
  formats?: PresentationFormat[];
  /** DIDs, SD-JWT VC `iss` URLs or PEM root certificates; default the issuers the service trusts. */
  trustedIssuers?: string[];
  /** `direct_post.jwt` (a QR code or link; the default) or `dc_api.jwt` (only the browser's Digital Credentials API). */
  responseMode?: 'direct_post.jwt' | 'dc_api.jwt';
  /** The origins of your pages that call the Digital Credentials API; with them the answer carries `dc_api`. */
  expectedOrigins?: string[];
  /** Why you ask, shown by wallets that show it. */
  purpose?: string;
  /**
   * Same device: your page, where the wallet sends the person once it has answered, with
   * `response_code` added; read the result with it (`presentationResult(id, { responseCode })`).
   */
  redirectUri?: string;
}

/** The value each preset has when a wallet proves it. */
export interface PresentedPresetValues {
  is_human: boolean;
  palm_verified: boolean;
  age_over_18: boolean;
  age_over_21: boolean;
  kyc_passed: boolean;
  country_of_residence: string;
}

type Evidence = NonNullable<NonNullable<PresentationResult['presets']>[string]>;
/** A preset a wallet proved: its value, the credential's format and issuer, and until when it holds. */
export type PresentedPreset<P extends PresentablePreset = PresentablePreset> = Omit<Evidence, 'value'> & { value: PresentedPresetValues[P] };
/** The check that refused the answer (`nonce`, `status`, `issuer_trust`, …) and why. */
export type PresentationError = NonNullable<PresentationResult['errors']>[number];
export type PresentationCheck = PresentationError['check'];

interface Open {
  id: string;
  expires_at: string;
}
/**
 * Where a presentation request stands. Only `verified` carries presets and claims; `failed` its
 * errors, and `pending` those of a refused answer while the request stays open for another (the
 * third refusal closes it): switch on `status` and the compiler knows which.
 */
export type PresentationOutcome =
  | (Open & { status: 'pending'; errors?: PresentationError[] })
  | (Open & {
      status: 'verified';
      /** The presets asked for (absent for a DCQL query). */
      presets?: { [P in PresentablePreset]?: PresentedPreset<P> };
      /** The disclosed claims, per DCQL credential query id. */
      claims: Record<string, Record<string, unknown>>;
      policy_result?: NonNullable<PresentationResult['policy_result']>;
    })
  | (Open & { status: 'failed'; errors: PresentationError[] })
  | (Open & { status: 'expired' });

/** The wire body of POST /presentation-requests. */
export function presentationRequestBody(input: PresentationRequestInput): Record<string, unknown> {
  const body: Record<string, unknown> = {
    presets: input.presets,
    dcql_query: input.dcqlQuery,
    policy: input.policy,
    formats: input.formats,
    trusted_issuers: input.trustedIssuers,
    response_mode: input.responseMode,
    expected_origins: input.expectedOrigins,
    purpose: input.purpose,
    redirect_uri: input.redirectUri,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** The service's answer, as the union it always is (a failed result without errors would be a service bug; it reads as none). */
export function toOutcome(result: PresentationResult): PresentationOutcome {
  const open = { id: result.id, expires_at: result.expires_at };
  switch (result.status) {
    case 'verified':
      return {
        ...open,
        status: 'verified',
        ...(result.presets ? { presets: result.presets as { [P in PresentablePreset]?: PresentedPreset<P> } } : {}),
        claims: result.claims ?? {},
        ...(result.policy_result ? { policy_result: result.policy_result } : {}),
      };
    case 'failed':
      return { ...open, status: 'failed', errors: result.errors ?? [] };
    case 'pending':
      return { ...open, status: 'pending', ...(result.errors ? { errors: result.errors } : {}) };
    default:
      return { ...open, status: result.status };
  }
}
