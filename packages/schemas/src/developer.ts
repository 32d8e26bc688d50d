import { z } from 'zod';
import { signInPolicySettings, ZSignInPolicy } from './assurance.js';
import { jwksProblem, redirectUriProblem } from './client-metadata.js';
import { ZGrantType } from './grant-types.js';
import { SCOPES, ZScope } from './scopes.js';

export const ZRenameOrganizationRequest = z.object({ name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters') });

export const ZOrganizationView = z.object({ id: z.string(), name: z.string(), ownerId: z.string().nullable(), isOwner: z.boolean() });

export const ZAuthorizationListQuery = z.object({
  status: z.enum(['active', 'revoked']).optional(),
  updated_since: z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ZAuthorizationList = z.object({
  items: z.array(
    z.object({
      authorization_id: z.string(),
      organization_id: z.string(),
      app_scoped_user_id: z.string(),
      updated_at: z.string(),
      status: z.enum(['active', 'revoked']),
    }),
  ),
  last_modified: z.string().optional(),
  has_more: z.boolean().optional(),
});

export type OrganizationView = z.infer<typeof ZOrganizationView>;
export type AuthorizationList = z.infer<typeof ZAuthorizationList>;

// ---- Integrator self-service: sign-up, applications, API keys, members, tokens (docs/sandbox.md) ----

const email = z.string().trim().toLowerCase().max(320).email('must be an email address');
/** A password a person chooses (sign-up, a password reset): one rule wherever one is set. */
export const ZNewPassword = z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters');
const password = ZNewPassword;
const name = z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters');
const problem = (check: (value: unknown) => string | undefined) => (value: unknown, ctx: z.RefinementCtx) => {
  const found = check(value);
  if (found) ctx.addIssue({ code: 'custom', message: found });
};

export const ZSignupRequest = z.strictObject({
  email,
  password,
  organization_name: name.optional(),
  /** An invitation's token: joins the organization that invited this email instead of making one. */
  invitation_token: z.string().min(1).max(200).optional(),
});
/** A sign-up waits for its address to be proven: the same answer whether or not the address has an account. */
export const ZSignupAccepted = z.object({
  status: z.literal('verification_sent'),
  /** Seconds the mailed link stays valid. */
  expires_in: z.number().int(),
});
/** The mailed link's token, and the password chosen at sign-up: whoever follows the link must also know it. */
export const ZSignupConfirmRequest = z.strictObject({ token: z.string().min(1).max(200), password: z.string().min(1).max(200) });
export const ZSignupConfirmed = z.object({ user_id: z.string(), organization_id: z.string() });

export const TOKEN_ENDPOINT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'self_signed_tls_client_auth', 'none'] as const;
const ZRedirectUri = z.string().superRefine(problem((uri) => redirectUriProblem(uri as string)));
const ZClientJwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).superRefine(problem(jwksProblem));

/** What a developer may change on an application after it is made. */
const applicationSettings = {
  name,
  redirect_uris: z
    .array(ZRedirectUri)
    .min(1, 'must list at least one redirect URI')
    .max(20, 'must list at most 20 redirect URIs')
    .refine((uris) => new Set(uris).size === uris.length, 'must not list a URI twice'),
  scopes: z.array(ZScope).min(1, 'must list at least one scope').max(SCOPES.length),
  require_dpop: z.boolean(),
  requires_palm_verification: z.boolean(),
  preset_cache_ttl_seconds: z
    .number()
    .int()
    .min(60)
    .max(30 * 86_400),
  access_token_ttl_seconds: z.number().int().min(60).max(86_400),
};

export const ZCreateApplicationRequest = z
  .strictObject({
    ...applicationSettings,
    require_dpop: applicationSettings.require_dpop.optional(),
    requires_palm_verification: applicationSettings.requires_palm_verification.optional(),
    preset_cache_ttl_seconds: applicationSettings.preset_cache_ttl_seconds.optional(),
    access_token_ttl_seconds: applicationSettings.access_token_ttl_seconds.optional(),
    type: z.enum(['public', 'confidential']),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
    jwks: ZClientJwks.optional(),
    /** "fapi2": the FAPI 2.0 Security Profile (docs/identity-provider.md); needs a keyed authentication method. */
    fapi_profile: z.literal('fapi2').optional(),
    ...ZSignInPolicy.shape,
  })
  .superRefine((app, ctx) => {
    const method = app.token_endpoint_auth_method;
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (app.type === 'public' && method && method !== 'none') issue('token_endpoint_auth_method', 'a public client has no secret or keys: none');
    if (app.type === 'confidential' && method === 'none') issue('token_endpoint_auth_method', 'a confidential client authenticates: not none');
    const keyed = method === 'private_key_jwt' || method === 'self_signed_tls_client_auth';
    if (keyed && !app.jwks) issue('jwks', `is required for ${method} (the client’s public keys)`);
    if (app.jwks && !keyed) issue('jwks', 'is only for token_endpoint_auth_method private_key_jwt or self_signed_tls_client_auth');
    if (app.fapi_profile && !keyed) issue('fapi_profile', 'needs token_endpoint_auth_method private_key_jwt or self_signed_tls_client_auth');
  });

export const ZUpdateApplicationRequest = z
  .strictObject({
    name: applicationSettings.name.optional(),
    redirect_uris: applicationSettings.redirect_uris.optional(),
    scopes: applicationSettings.scopes.optional(),
    require_dpop: applicationSettings.require_dpop.optional(),
    requires_palm_verification: applicationSettings.requires_palm_verification.optional(),
    preset_cache_ttl_seconds: applicationSettings.preset_cache_ttl_seconds.optional(),
    access_token_ttl_seconds: applicationSettings.access_token_ttl_seconds.optional(),
    jwks: ZClientJwks.optional(),
    // [] or null clears a setting.
    default_acr_values: signInPolicySettings.default_acr_values.optional(),
    default_max_age: signInPolicySettings.default_max_age.nullable().optional(),
    sensitive_data_acr: signInPolicySettings.sensitive_data_acr.nullable().optional(),
    sensitive_data_max_age: signInPolicySettings.sensitive_data_max_age.nullable().optional(),
  })
  .refine((update) => Object.keys(update).length > 0, 'must change at least one setting');

export const ZClientIdParams = z.object({ client_id: z.string().min(1).max(100) });

export const ZApplicationView = z.object({
  client_id: z.string(),
  name: z.string(),
  type: z.enum(['public', 'confidential']),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  redirect_uris: z.array(z.string()),
  scopes: z.array(z.string()),
  require_dpop: z.boolean(),
  requires_palm_verification: z.boolean(),
  preset_cache_ttl_seconds: z.number(),
  access_token_ttl_seconds: z.number(),
  /** Present when the application is held to the FAPI 2.0 Security Profile. */
  fapi_profile: z.literal('fapi2').optional(),
  ...ZSignInPolicy.shape,
  status: z.enum(['active', 'revoked']),
  created_at: z.string(),
});
/** `client_secret`: shown this once (null for a public or private_key_jwt client); only its hash is kept. */
export const ZCreatedApplication = ZApplicationView.extend({ client_secret: z.string().nullable() });
export const ZApplicationList = z.object({ items: z.array(ZApplicationView) });
export const ZRotatedSecret = z.object({ client_id: z.string(), client_secret: z.string() });

export const API_KEY_PERMISSIONS = ['wallet:verify', 'credentials:issue', 'presentations:verify'] as const;

/** A new key's limits when none are given: the spec's 1000 requests per hour and 10 per second. */
export const API_KEY_DEFAULT_LIMITS = { hourly: 1000, burst: 10 } as const;
/**
 * The platform maximum of one key's limits when the operator sets none (API_KEY_MAX_HOURLY_LIMIT,
 * API_KEY_MAX_BURST_LIMIT): ten times the defaults. Tenants choose their keys' limits, so without
 * a ceiling a per-key limit would be whatever a tenant says.
 */
export const API_KEY_MAX_LIMITS = { hourly: 10_000, burst: 100 } as const;
/**
 * What all of one organization's keys together may use of one service when the operator sets
 * nothing else (ORGANIZATION_HOURLY_LIMIT, ORGANIZATION_BURST_LIMIT): as much as one key at the
 * platform maximum, so more keys share a budget rather than add to it.
 */
export const ORGANIZATION_LIMITS = { hourly: 10_000, burst: 100 } as const;

export const ZCreateApiKeyRequest = z.strictObject({
  name: name.optional(),
  permissions: z
    .array(z.enum(API_KEY_PERMISSIONS))
    .min(1, 'must list at least one permission')
    .refine((p) => new Set(p).size === p.length, 'must not list a permission twice'),
  // The ceiling is the operator's (checked by the service, whose 400 names it), not this schema's.
  hourly_limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description: `Requests per clock hour (default ${API_KEY_DEFAULT_LIMITS.hourly}); at most the platform maximum, ${API_KEY_MAX_LIMITS.hourly.toLocaleString('en')} unless the operator set another (API_KEY_MAX_HOURLY_LIMIT). Above it: 400 naming the field and the maximum.`,
    }),
  burst_limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .meta({
      description: `Requests per second (default ${API_KEY_DEFAULT_LIMITS.burst}); at most the platform maximum, ${API_KEY_MAX_LIMITS.burst} unless the operator set another (API_KEY_MAX_BURST_LIMIT). Above it: 400 naming the field and the maximum.`,
    }),
});
export const ZApiKeyIdParams = z.object({ id: z.string().uuid('must be a UUID') });
export const ZApiKeyView = z.object({
  id: z.string(),
  name: z.string().nullable(),
  prefix: z.string(),
  permissions: z.array(z.string()),
  hourly_limit: z.number().meta({ description: 'Requests per clock hour this key is held to (a key made above the platform maximum is held to the maximum)' }),
  burst_limit: z.number().meta({ description: 'Requests per second this key is held to (likewise at most the platform maximum)' }),
  status: z.enum(['active', 'disabled']),
  last_used_at: z.string().nullable(),
  /** Requests with this key in the current hour, as wallet verify and the issuer counted them (flushed every minute or so). */
  requests_this_hour: z.number(),
  created_at: z.string(),
  disabled_at: z.string().nullable(),
});
/** `key`: shown this once; only its hash is kept. */
export const ZCreatedApiKey = ZApiKeyView.extend({ key: z.string() });
export const ZApiKeyList = z.object({ items: z.array(ZApiKeyView) });

export const ZAddMemberRequest = z.strictObject({ email, role: z.enum(['owner', 'developer']) });
/** `invitation_token`: shown this once, to hand to the invited person (sign-up, or accept when they have an account). */
export const ZInvitation = z.object({
  email: z.string(),
  role: z.enum(['owner', 'developer']),
  status: z.literal('invited'),
  invitation_token: z.string(),
  expires_at: z.string(),
});
export const ZAcceptInvitationRequest = z.strictObject({ invitation_token: z.string().min(1).max(200) });
export const ZAcceptedInvitation = z.object({ organization_id: z.string(), role: z.enum(['owner', 'developer']) });
export const ZMemberParams = z.object({ user_id: z.string().uuid('must be a UUID') });
export const ZMemberView = z.object({
  email: z.string(),
  role: z.enum(['owner', 'developer']),
  /** member: has an account and belongs; invited: joins when they sign up with this email. */
  status: z.enum(['member', 'invited']),
  user_id: z.string().nullable(),
});
export const ZMemberList = z.object({ items: z.array(ZMemberView) });

/** Every personal access token expires: 90 days unless asked otherwise, at most a year. */
export const ZCreatePersonalAccessTokenRequest = z.strictObject({ name, expires_in_days: z.number().int().min(1).max(365).default(90) });
/** `token`: shown this once. */
export const ZCreatedPersonalAccessToken = z.object({ id: z.string(), name: z.string(), token: z.string(), expires_at: z.string() });
export const ZPersonalAccessTokenList = z.object({
  items: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      prefix: z.string(),
      created_at: z.string(),
      expires_at: z.string().nullable(),
      last_used_at: z.string().nullable(),
    }),
  ),
});
export const ZTokenIdParams = z.object({ id: z.string().uuid('must be a UUID') });
export const ZCreateInitialAccessTokenRequest = z.strictObject({ expires_in_hours: z.number().int().min(1).max(720).default(24) });
export const ZCreatedInitialAccessToken = z.object({ id: z.string(), token: z.string(), expires_at: z.string() });
export const ZInitialAccessTokenList = z.object({
  items: z.array(z.object({ id: z.string(), prefix: z.string(), created_at: z.string(), expires_at: z.string() })),
});

export type ApplicationView = z.infer<typeof ZApplicationView>;
export type ApiKeyView = z.infer<typeof ZApiKeyView>;

// ---- RFC 7591 / 7592 dynamic client registration ----

/** What POST /oauth/register takes (checked by parseClientMetadata; other members are ignored). */
export const ZClientRegistrationRequest = z
  .object({
    redirect_uris: z.array(z.string()),
    token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS).optional(),
    grant_types: z.array(ZGrantType).optional(),
    response_types: z.array(z.literal('code')).optional(),
    client_name: z.string().optional(),
    scope: z.string().optional(),
    jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
    jwks_uri: z.string().optional(),
    dpop_bound_access_tokens: z.boolean().optional(),
    require_pushed_authorization_requests: z.boolean().optional(),
    post_logout_redirect_uris: z.array(z.string()).optional(),
    backchannel_logout_uri: z.string().optional(),
    backchannel_logout_session_required: z.boolean().optional(),
    id_token_signed_response_alg: z.enum(['RS256', 'PS256']).optional(),
    introspection_signed_response_alg: z.enum(['RS256', 'PS256']).optional(),
    fapi_profile: z.literal('fapi2').optional(),
    ...ZSignInPolicy.shape,
  })
  .catchall(z.unknown());

export const ZClientRegistration = z.object({
  client_id: z.string(),
  /** Confidential clients only, in the registration answer only. */
  client_secret: z.string().optional(),
  client_secret_expires_at: z.literal(0).optional(),
  client_id_issued_at: z.number(),
  /** RFC 7592: in the registration answer only (shown once). */
  registration_access_token: z.string().optional(),
  registration_client_uri: z.string().optional(),
  client_name: z.string(),
  redirect_uris: z.array(z.string()),
  token_endpoint_auth_method: z.enum(TOKEN_ENDPOINT_AUTH_METHODS),
  grant_types: z.array(z.string()),
  response_types: z.array(z.string()),
  scope: z.string(),
  jwks: z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).optional(),
  jwks_uri: z.string().optional(),
  dpop_bound_access_tokens: z.boolean(),
  require_pushed_authorization_requests: z.boolean(),
  tls_client_certificate_bound_access_tokens: z.boolean(),
  post_logout_redirect_uris: z.array(z.string()),
  backchannel_logout_uri: z.string().optional(),
  backchannel_logout_session_required: z.boolean(),
  id_token_signed_response_alg: z.enum(['RS256', 'PS256']),
  introspection_signed_response_alg: z.enum(['RS256', 'PS256']),
  fapi_profile: z.literal('fapi2').optional(),
  ...ZSignInPolicy.shape,
});
