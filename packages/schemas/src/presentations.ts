import { z } from 'zod';

/**
 * OpenID4VP 1.0 at the credential issuer (../shared/DESIGN.md, "Presentations"): an integrator asks
 * a wallet for presets or a DCQL query, and gets the answer back as presets with evidence.
 */

/** The formats a verifier accepts: SD-JWT VC, ISO mdoc, W3C with a Data Integrity proof. */
export const PRESENTATION_FORMATS = ['dc+sd-jwt', 'mso_mdoc', 'ldp_vc'] as const;
export type PresentationFormat = (typeof PRESENTATION_FORMATS)[number];

/** How the wallet answers: posted to the response URI, or handed to the page by the browser (the DC API). */
export const PRESENTATION_RESPONSE_MODES = ['direct_post.jwt', 'dc_api.jwt'] as const;

/** The presets a wallet's credential can answer (the mapping table is in the credential issuer). */
export const PRESENTABLE_PRESETS = ['is_human', 'palm_verified', 'age_over_18', 'age_over_21', 'kyc_passed', 'country_of_residence'] as const;
export type PresentablePreset = (typeof PRESENTABLE_PRESETS)[number];

/** Answers that may fail before a request is closed as failed. */
export const PRESENTATION_FAILED_ANSWERS = 3;

/** Seconds a presentation request stays open. */
export const PRESENTATION_REQUEST_SECONDS = 300;

const ZQueryId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -');
const ZClaimPath = z
  .array(z.union([z.string().min(1).max(100), z.number().int().min(0).max(1000), z.null()]))
  .min(1, 'must name at least one step')
  .max(8, 'must have at most 8 steps');

/** DCQL (OpenID4VP 1.0 §6): what the integrator asks of the wallet when presets do not say it. */
export const ZDcqlQuery = z.strictObject({
  credentials: z
    .array(
      z.strictObject({
        id: ZQueryId,
        format: z.enum(PRESENTATION_FORMATS, { message: `must be one of: ${PRESENTATION_FORMATS.join(', ')}` }),
        meta: z
          .strictObject({
            vct_values: z.array(z.string().min(1).max(2000)).min(1).max(10).optional(),
            doctype_value: z.string().min(1).max(200).optional(),
            type_values: z
              .array(z.array(z.string().min(1).max(200)).min(1).max(10))
              .min(1)
              .max(10)
              .optional(),
          })
          .optional(),
        claims: z
          .array(
            z.strictObject({
              id: ZQueryId.optional(),
              path: ZClaimPath,
              values: z
                .array(z.union([z.string(), z.number(), z.boolean()]))
                .max(20)
                .optional(),
            }),
          )
          .min(1)
          .max(32)
          .optional(),
        multiple: z.literal(false).optional(),
        require_cryptographic_holder_binding: z.literal(true).optional(),
      }),
    )
    .min(1, 'must ask for at least one credential')
    .max(10, 'must ask for at most 10 credentials')
    .refine((list) => new Set(list.map((c) => c.id)).size === list.length, 'must not use a credential query id twice'),
  credential_sets: z
    .array(
      z.strictObject({
        options: z.array(z.array(ZQueryId).min(1).max(10)).min(1).max(10),
        required: z.boolean().optional(),
      }),
    )
    .min(1)
    .max(10)
    .optional(),
});
export type DcqlQuery = z.infer<typeof ZDcqlQuery>;

/**
 * `value` as a URL of a secure context (https, or http on the machine itself), for `also` to check
 * further; false when it is none.
 */
function secureUrl(value: string, also: (url: URL) => boolean): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const local = url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  return (url.protocol === 'https:' || (url.protocol === 'http:' && local)) && also(url);
}

// Browsers offer the Digital Credentials API in secure contexts only.
const ZOrigin = z
  .string()
  .max(300)
  .refine(
    (value) => secureUrl(value, (url) => url.origin === value),
    'must be an https origin such as https://shop.example (scheme, host and port, no path; http only for localhost)',
  );

/** Where a wallet on the person's own device sends them back: no user name or password, no fragment, and no response_code of its own. */
const ZWalletRedirectUri = z
  .string()
  .max(2000)
  .refine(
    (value) => secureUrl(value, (url) => !url.username && !url.password && !value.includes('#') && !url.searchParams.has('response_code')),
    'must be an https URL of your page, with no user name, fragment or response_code of its own (http only for localhost)',
  );

/** A trusted issuer: a DID, an SD-JWT VC `iss` URL, or a PEM root certificate. */
const ZTrustedIssuer = z
  .string()
  .min(1)
  .max(20_000)
  .refine(
    (v) => /^did:[a-z0-9]+:/.test(v) || /^https?:\/\//.test(v) || v.includes('-----BEGIN CERTIFICATE-----'),
    'must be a DID, an issuer URL or a PEM root certificate',
  );

export const ZCreatePresentationRequest = z
  .strictObject({
    presets: z
      .array(z.enum(PRESENTABLE_PRESETS, { message: `must be one of: ${PRESENTABLE_PRESETS.join(', ')}` }))
      .min(1, 'must name at least one preset')
      .max(PRESENTABLE_PRESETS.length)
      .refine((list) => new Set(list).size === list.length, 'must not name a preset twice')
      .optional(),
    dcql_query: ZDcqlQuery.optional(),
    /** The query engine's policy (allOf/anyOf/not of checks) over the presets, or over `<credential query id>.<claim>` for a DCQL query. */
    policy: z.record(z.string(), z.unknown()).optional(),
    formats: z
      .array(z.enum(PRESENTATION_FORMATS, { message: `must be one of: ${PRESENTATION_FORMATS.join(', ')}` }))
      .min(1)
      .max(PRESENTATION_FORMATS.length)
      .optional(),
    trusted_issuers: z.array(ZTrustedIssuer).min(1).max(20).optional(),
    response_mode: z.enum(PRESENTATION_RESPONSE_MODES, { message: `must be one of: ${PRESENTATION_RESPONSE_MODES.join(', ')}` }).default('direct_post.jwt'),
    /** The origins of the pages that call the Digital Credentials API; needed for `dc_api`. */
    expected_origins: z.array(ZOrigin).min(1).max(10).optional(),
    /** Why the integrator asks, shown by wallets that show it. */
    purpose: z.string().trim().min(1).max(300).optional(),
    /**
     * Same device: the page a wallet on the person's own device sends them back to once it has
     * answered, with `response_code` added; the result is then read with that code only.
     */
    redirect_uri: ZWalletRedirectUri.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.presets && body.dcql_query) ctx.addIssue({ code: 'custom', path: ['dcql_query'], message: 'give presets or dcql_query, not both' });
    if (!body.presets && !body.dcql_query) ctx.addIssue({ code: 'custom', path: ['presets'], message: 'give presets or dcql_query' });
    if (body.response_mode === 'dc_api.jwt' && !body.expected_origins)
      ctx.addIssue({ code: 'custom', path: ['expected_origins'], message: 'is required with response_mode dc_api.jwt: the origins of the pages that ask' });
    if (body.response_mode === 'dc_api.jwt' && body.redirect_uri)
      ctx.addIssue({
        code: 'custom',
        path: ['redirect_uri'],
        message: 'is for direct_post.jwt: over the Digital Credentials API the page receives the answer itself',
      });
  });
export type CreatePresentationRequest = z.output<typeof ZCreatePresentationRequest>;

export const ZPresentationRequestParams = z.object({ id: z.uuid({ message: 'must be a presentation request id' }) });

/** GET /presentation-requests/{id}: a request made with a redirect_uri is read with the code its redirect carried. */
export const ZPresentationResultQuery = z.object({ response_code: z.string().min(1).max(200).optional() });

/** What the verifier answers a wallet's accepted answer: where to send the person, for a request made with a redirect_uri. */
export const ZWalletResponseAnswer = z.object({ redirect_uri: z.string().optional() });

/** What `navigator.credentials.get({digital: {requests: [dc_api]}})` takes (OpenID4VP 1.0 Appendix A). */
export const ZDcApiRequest = z.object({ protocol: z.literal('openid4vp-v1-signed'), data: z.object({ request: z.string() }) });

export const ZCreatedPresentationRequest = z.object({
  id: z.string(),
  status: z.literal('pending'),
  expires_at: z.string(),
  request_uri: z.string(),
  /** `openid4vp://?client_id=…&request_uri=…`: show it as a QR code, or open it on the phone. */
  request_link: z.string(),
  /** Present when `expected_origins` was given. */
  dc_api: ZDcApiRequest.optional(),
  dcql_query: ZDcqlQuery,
});
export type CreatedPresentationRequest = z.infer<typeof ZCreatedPresentationRequest>;

/** Which check failed: a closed list, so an integrator can act on each. */
export const PRESENTATION_CHECKS = [
  'state',
  'vp_token',
  'credential_sets',
  'unrequested_credential',
  'format',
  'issuer_signature',
  'issuer_trust',
  'key_binding',
  'nonce',
  'audience',
  'disclosures',
  'unrequested_disclosure',
  'claims',
  'type',
  'validity',
  'status',
  'device_signature',
  'digests',
] as const;
export type PresentationCheck = (typeof PRESENTATION_CHECKS)[number];

export const ZPresentationError = z.object({
  check: z.enum(PRESENTATION_CHECKS),
  /** The DCQL credential query the failing presentation answered, when there was one. */
  credential_query_id: z.string().optional(),
  message: z.string(),
});
export type PresentationError = z.infer<typeof ZPresentationError>;

export const ZPresentedPreset = z.object({
  value: z.unknown(),
  format: z.enum(PRESENTATION_FORMATS),
  /** The SD-JWT VC's `iss`, the mdoc signer's certificate subject, or the issuer DID. */
  issuer: z.string(),
  verified_at: z.string(),
  expires_at: z.string().nullable(),
  /** For this service's own credentials, who vouched for the value: the identity provider (the person's verified data) or your organization (your own offer). */
  vouched_by: z.enum(['identity_provider', 'organization']).optional(),
});
export type PresentedPreset = z.infer<typeof ZPresentedPreset>;

export const ZPresentationResult = z.object({
  id: z.string(),
  status: z.enum(['pending', 'verified', 'failed', 'expired']),
  expires_at: z.string(),
  presets: z.record(z.string(), ZPresentedPreset).optional(),
  /** The disclosed claims, per DCQL credential query id. */
  claims: z.record(z.string(), z.record(z.string(), z.unknown())).optional(),
  policy_result: z
    .object({
      result: z.boolean(),
      evidence: z.object({ claimsUsed: z.array(z.record(z.string(), z.unknown())), checkResults: z.array(z.record(z.string(), z.unknown())) }),
    })
    .optional(),
  /** Why the last answer was refused: with status failed, the third; with status pending, an earlier one (the request is still open). */
  errors: z.array(ZPresentationError).optional(),
});
export type PresentationResult = z.infer<typeof ZPresentationResult>;

/** The wallet's answer at the response URI (direct_post.jwt): one JWE. */
export const ZWalletPresentationResponse = z.object({ response: z.string().min(1).max(1_000_000) });

/** What the integrator's backend relays from the page after the DC API call. */
export const ZDcApiPresentationResponse = z.strictObject({
  /** The DigitalCredential's `data`: `{response: <JWE>}`. */
  response: z.object({ response: z.string().min(1).max(1_000_000) }),
  origin: ZOrigin,
});
