import { z } from 'zod';
import { ZEvmAddress } from './common.js';

const ZDate = z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

/** The spec's request: `{subject_address, claims, valid_until?}`. */
export const ZIssueForSubjectRequest = z
  .object({
    subject_address: ZEvmAddress,
    claims: z.record(z.string(), z.unknown(), { error: 'must be a JSON object of claim names to values' }),
    valid_until: ZDate.optional(),
  })
  .strict();

const CREDENTIALS_V2 = 'https://www.w3.org/ns/credentials/v2';
const CREDENTIALS_V1 = 'https://www.w3.org/2018/credentials/v1';

/** VC DM 2.0 §4.3: the v2 context first, then context URLs or embedded context objects. */
const ZContext = z.array(z.union([z.string(), z.record(z.string(), z.unknown())])).min(1);

/** VC DM 2.0 §4.8: one subject, or a set of them. */
const ZSubjects = z.union([z.record(z.string(), z.unknown()), z.array(z.record(z.string(), z.unknown())).min(1)]);

/** RFC 6901; each step a `/` and its (escaped) name. */
const ZJsonPointer = z
  .string()
  .max(1024)
  .regex(/^(\/([^~/]|~[01])*)+$/, 'must be a JSON Pointer such as /credentialSubject/age_over_18');

/** The W3C VC API request: `{credential, options?}`, told apart by its `credential` member. */
const ZStatusChoice = z.looseObject({ type: z.string().min(1).max(64) });
/** A credentialStatus entry: the issuer's registry entry, or a Bitstring Status List entry (its members below). */
const ZStatusEntry = z.looseObject({
  type: z.string(),
  id: z.string().optional(),
  statusPurpose: z.string().optional(),
  statusListIndex: z.string().optional(),
  statusListCredential: z.string().optional(),
});

export const ZVcApiIssueRequest = z.object({
  credential: z
    .object({
      // VC DM 2.0, or 1.1 (issuanceDate/expirationDate): bbs-2023 signs both.
      '@context': ZContext.refine((c) => c[0] === CREDENTIALS_V2 || c[0] === CREDENTIALS_V1, `must start with ${CREDENTIALS_V2} (or ${CREDENTIALS_V1})`),
      type: z.array(z.string()).refine((t) => t.includes('VerifiableCredential'), 'must contain VerifiableCredential'),
      issuer: z.union([z.string(), z.looseObject({ id: z.string() })]),
      credentialSubject: ZSubjects,
      proof: z.undefined({ error: 'must be absent: the issuer adds the proof' }).optional(),
    })
    .passthrough(),
  options: z
    .looseObject({
      /** Signed into the base proof as always disclosed, beside the issuer's own (issuer, validity, status). */
      mandatoryPointers: z.array(ZJsonPointer).max(100).optional(),
      /**
       * Which status entries the credential carries (VC API): `BitstringStatusListEntry`, the
       * issuer's registry entry (its CREDENTIAL_STATUS_TYPE), or both; both when left out.
       */
      credentialStatus: z.union([ZStatusChoice, z.array(ZStatusChoice).min(1).max(2)]).optional(),
    })
    .optional(),
});

export const ZIssueRequest = z.union([ZIssueForSubjectRequest, ZVcApiIssueRequest]);

export const ZVerifiableCredential = z
  .looseObject({
    '@context': ZContext,
    type: z.array(z.string()),
    issuer: z.union([z.string(), z.looseObject({ id: z.string() })]),
    id: z.string().optional(),
    validFrom: z.string().optional(),
    validUntil: z.string().optional(),
    credentialSubject: ZSubjects,
    credentialStatus: z.union([ZStatusEntry, z.array(ZStatusEntry)]).optional(),
    proof: z.looseObject({ type: z.string(), cryptosuite: z.string().optional(), proofValue: z.string() }).optional(),
  })
  .meta({ id: 'VerifiableCredential' });

/** A W3C Bitstring Status List credential as this issuer serves it (revocation purpose). */
export const ZBitstringStatusListCredential = ZVerifiableCredential.extend({
  id: z.string(),
  credentialSubject: z.object({
    id: z.string(),
    type: z.literal('BitstringStatusList'),
    statusPurpose: z.literal('revocation'),
    /** GZIP-compressed bitstring, base64url, multibase `u` prefix; bit i is the credential at index i. */
    encodedList: z.string(),
    /** Milliseconds a verifier may keep it. */
    ttl: z.number().int(),
  }),
}).meta({ id: 'BitstringStatusListCredential' });

export const ZIssueResponse = z.object({ message: z.string(), credential: ZVerifiableCredential });
export const ZVcApiIssueResponse = z.object({ verifiableCredential: ZVerifiableCredential });

export const ZVerifyCredentialRequest = z.object({ credential: z.record(z.string(), z.unknown(), { error: 'must be a credential object' }) });
export const ZVerifyCredentialResponse = z.object({ verified: z.boolean(), checks: z.array(z.string()), errors: z.array(z.string()) });

const ZCredentialObject = z.record(z.string(), z.unknown(), { error: 'must be a credential object' });

/**
 * Issuers the caller trusts beside this service's own DIDs (which are always trusted): a proof
 * only says who signed, so another issuer's credential verifies only when named here.
 */
const ZTrustedIssuers = z
  .array(z.string().min(1).max(2000))
  .max(100)
  .meta({ description: "Issuer ids (DIDs) trusted beside this service's own; a credential of any other issuer does not verify." });
/** Which issuer signed a credential that verified, and why it is trusted (said for issuers other than this service). */
const ZIssuerVerdict = z.object({ id: z.string(), trustedBy: z.enum(['options.trustedIssuers', 'VERIFY_TRUSTED_ISSUERS']) }).meta({ id: 'TrustedIssuer' });

/** The W3C VC API verify request, told apart from `{credential}` by its `verifiableCredential` member. */
export const ZVcApiVerifyCredentialRequest = z.object({
  verifiableCredential: ZCredentialObject,
  options: z
    .object({
      checks: z
        .array(z.enum(['proof', 'validity', 'status']))
        .min(1)
        .optional(),
      expectedProofPurpose: z.string().max(200).optional(),
      domain: z.string().max(2000).optional(),
      challenge: z.string().max(2000).optional(),
      trustedIssuers: ZTrustedIssuers.optional(),
    })
    .strict()
    .optional(),
});
export const ZVerifyRequest = z.union([ZVerifyCredentialRequest, ZVcApiVerifyCredentialRequest]);

/** VC Data Model 2.0 §7.2 problem details. */
const ZProblem = z.object({ type: z.string(), title: z.string(), detail: z.string() }).meta({ id: 'ProblemDetails' });
const verification = { checks: z.array(z.string()), warnings: z.array(ZProblem), errors: z.array(ZProblem) };
export const ZVcApiVerifyCredentialResponse = z.object({ verified: z.literal(true), ...verification, issuer: ZIssuerVerdict.optional() });
/** A credential that fails a check (VC API shape): 400, every failing check in `errors`. */
export const ZVcApiVerificationFailure = z.object({
  error: z.literal('verification_failed'),
  error_description: z.string(),
  request_id: z.string().optional(),
  verified: z.literal(false),
  ...verification,
});

/** The W3C VC API presentation verify request; the holder's proof must carry this challenge (and domain, when given). */
export const ZVerifyPresentationRequest = z.object({
  verifiablePresentation: z.record(z.string(), z.unknown(), { error: 'must be a presentation object' }),
  options: z
    .object({ challenge: z.string().max(2000).optional(), domain: z.string().max(2000).optional(), trustedIssuers: ZTrustedIssuers.optional() })
    .strict()
    .optional(),
});
/** 200 whatever the verdict (VC API): the presentation's own proof, then each credential inside it. */
export const ZVerifyPresentationResponse = z.object({
  verified: z.boolean(),
  ...verification,
  credentialResults: z.array(z.object({ id: z.string().optional(), verified: z.boolean(), errors: z.array(ZProblem), issuer: ZIssuerVerdict.optional() })),
});

/** The W3C VC API derive request: a holder discloses what `selectivePointers` name, and the issuer's mandatory members. */
export const ZDeriveCredentialRequest = z.object({
  verifiableCredential: ZCredentialObject,
  options: z.object({ selectivePointers: z.array(ZJsonPointer).min(1).max(100) }).strict(),
});
export const ZDeriveCredentialResponse = z.object({ verifiableCredential: ZVerifiableCredential });

export const ZRevokeCredentialRequest = z.object({ credential_id: z.string() });
export const ZRevokeCredentialResponse = z.object({ revoked: z.literal(true), credential_id: z.string(), revoked_at: z.string() });

export const ZCredentialListQuery = z.object({
  subject_address: ZEvmAddress.optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().max(200).optional(),
});

/** What a wallet tells the issuer about credentials it received (OpenID4VCI 1.0 §11). */
export const WALLET_EVENTS = ['credential_accepted', 'credential_deleted', 'credential_failure'] as const;
export type WalletEvent = (typeof WALLET_EVENTS)[number];

export const ZCredentialList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      subject_address: z.string(),
      issuer: z.string(),
      claim_names: z.array(z.string()),
      status: z.enum(['active', 'revoked']),
      /** `ldp_vc` (bbs-2023, from /credentials/issue or a wallet), `dc+sd-jwt` (an SD-JWT VC a wallet received) or `mso_mdoc` (an ISO mdoc a wallet received). */
      format: z.enum(['ldp_vc', 'dc+sd-jwt', 'mso_mdoc']),
      /** How many copies of it a wallet holds (OpenID4VCI batch issuance; each bound to its own key): revoking it revokes them all. */
      copies: z.number().int().min(1),
      /** The wallet's latest word on it at the notification endpoint, if any. */
      wallet_event: z.enum(WALLET_EVENTS).nullable(),
      issued_at: z.string(),
      valid_from: z.string(),
      valid_until: z.string().nullable(),
      revoked_at: z.string().nullable(),
    }),
  ),
  next_cursor: z.string().nullable(),
});

export const ZCredentialIdParams = z.object({ id: z.string() });
export const ZStatusListParams = z.object({ id: z.uuid() });
export const ZCredentialStatus = z.object({ credential_id: z.string(), revoked: z.boolean(), revoked_at: z.string().nullable() });

export type VerifiableCredential = z.infer<typeof ZVerifiableCredential>;
export type VerifyCredentialResponse = z.infer<typeof ZVerifyCredentialResponse>;
