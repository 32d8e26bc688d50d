import { z } from 'zod';
import { type GrantType, grantTypesInWords } from './grant-types.js';
import { ZCredentialAuthorizationDetail, ZGrantedCredentialDetail } from './wallet-credential-types.js';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
/** Text that is stored or echoed as it came (state, nonce, hints): no control characters (a NUL cannot be stored). */
const hasControlCharacter = (value: string) => [...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const plainText = (max: number) => text(max).refine((value) => !hasControlCharacter(value), 'must not contain control characters');
const filled = (max: number) => z.string().min(1).max(max);
const AUTHORIZATION_STATUSES = ['pending_admin', 'approved', 'denied', 'revoked', 'consumed'] as const;

/** RFC 6749 §5.2 / RFC 6750 §3.1 error bodies of the OAuth endpoints; a body that fails validation also names each field. */
export const ZOAuthError = z
  .object({
    error: z.string(),
    error_description: z.string().optional(),
    details: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
    request_id: z.string().optional(),
  })
  .meta({ id: 'OAuthError' });

/** The parameters of an authorization request, sent to /oauth/authorize or pushed to /oauth/par. */
const authorizationParameters = {
  redirect_uri: plainText(2000).optional(),
  response_type: plainText(50).optional(),
  scope: plainText(1000).optional(),
  state: plainText(1000).optional(),
  code_challenge: plainText(200).optional(),
  code_challenge_method: plainText(20).optional(),
  authorization_id: plainText(100).optional(),
  login_hint: plainText(320).optional(),
  locale: plainText(35).optional(),
  nonce: plainText(500).optional(),
  /** RFC 9396 (OpenID4VCI 1.0 §5.1.1): a JSON array naming the credentials a wallet asks for. */
  authorization_details: plainText(4096).optional(),
  /** RFC 9449 §10: the thumbprint of the DPoP key the code is bound to. */
  dpop_jkt: plainText(100).optional(),
  /** OpenID Connect Core §3.1.2.1: none, login, consent (space-separated). */
  prompt: plainText(100).optional(),
  /** Seconds since the person last signed in, at most. */
  max_age: plainText(12).optional(),
  /** Acceptable acr values, in order of preference (voluntary). */
  acr_values: plainText(200).optional(),
  /** OpenID Connect Core §5.5: a JSON object; an essential `acr` in it is honoured. */
  claims: plainText(4096).optional(),
};

export const ZAuthorizeQuery = z.object({
  client_id: plainText(100),
  ...authorizationParameters,
  /** RFC 9126: the reference of a pushed request; every other parameter but client_id is then ignored. */
  request_uri: plainText(2000).optional(),
  /** RFC 9101: the request as a JWT signed by the client; every other parameter but client_id is then ignored. */
  request: plainText(16_384).optional(),
});

/** RFC 9101 §4: the claims of a request object that this server reads (the JWT's own claims beside them). */
export const ZRequestObjectClaims = z.object({
  client_id: plainText(100).optional(),
  ...authorizationParameters,
  // RFC 9396 §3: inside a request object the details are JSON itself, not a string of it.
  authorization_details: z.union([plainText(4096), z.array(z.unknown()).max(20)]).optional(),
  // Inside a request object these are JSON too.
  max_age: z.union([plainText(12), z.number()]).optional(),
  claims: z.union([plainText(4096), z.record(z.string(), z.unknown())]).optional(),
});

export const ZAuthorizeResponse = z.object({
  authorization_id: z.string(),
  status: z.literal('pending_admin'),
  consent_url: z.string(),
  expires_at: z.string(),
});

export const ZAuthorizationIdQuery = z.object({ authorization_id: z.string().max(100) });

// Forms send one `scopes` field per box ticked; JSON sends an array.
export const ZDecisionRequest = z.object({
  authorization_id: z.string().max(100),
  scopes: z
    .union([
      z
        .string()
        .max(100)
        .transform((s) => [s]),
      z.array(z.string().max(100)).max(20),
    ])
    .optional(),
  csrf_token: z.string().max(200).optional(),
});

export const ZApproveResponse = z.object({
  authorization_id: z.string(),
  status: z.literal('approved'),
  code: z.string(),
  code_expires_at: z.string(),
  scopes: z.array(z.string()),
  granted_scopes: z.array(z.string()),
  app_scoped_user_id: z.string(),
  organization_id: z.string(),
  state: z.string().optional(),
  redirect_uri: z.string(),
  client_id: z.string(),
  /** Beyond the spec: the redirect URI with the response parameters, for front ends. */
  redirect_to: z.string(),
});

export const ZDenyResponse = z.object({ authorization_id: z.string(), status: z.literal('denied'), redirect_uri: z.string(), redirect_to: z.string() });

export const ZAuthorizationResult = z.object({
  authorization_id: z.string(),
  status: z.enum(AUTHORIZATION_STATUSES),
  redirect_uri: z.string(),
  state: z.string().nullable(),
  code: z.string().optional(),
  redirect_to: z.string().nullable(),
});

export const ZScopeDetail = z
  .object({
    id: z.string(),
    display_name: z.string(),
    description: z.string().optional(),
    category: z.string().optional(),
    implied_scopes: z.array(z.string()).optional(),
    is_default: z.boolean().optional(),
  })
  .meta({ id: 'ScopeDetail' });

export const ZAuthorizationContext = z.object({
  authorization_id: z.string(),
  client_id: z.string(),
  user_id: z.string(),
  app_scoped_user_id: z.string(),
  status: z.enum(AUTHORIZATION_STATUSES),
  redirect_uri: z.string(),
  state: z.string().optional(),
  requested_scopes: z.array(z.string()),
  granted_scopes: z.array(z.string()).optional(),
  code: z.string().optional(),
  code_expires_at: z.string().optional(),
  nonce: z.string().optional(),
  application: z.object({
    client_id: z.string(),
    name: z.string(),
    organization_id: z.string(),
    /** Beyond the spec: what the consent page shows. */
    organization_name: z.string().optional(),
    status: z.enum(['active', 'revoked']),
    redirect_uris: z.array(z.string()),
    created_by_user_id: z.string().optional(),
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    revoked_at: z.string().optional(),
  }),
  scopes: z.array(ZScopeDetail),
  /** The credentials a wallet asks for (RFC 9396, OpenID4VCI), granted with the approval. */
  authorization_details: z.array(ZCredentialAuthorizationDetail).optional(),
  metadata: z.object({
    created_at: z.string().optional(),
    updated_at: z.string().optional(),
    approved_at: z.string().optional(),
    revoked_at: z.string().optional(),
    last_token_issued_at: z.string().optional(),
  }),
  policy: z.object({ requires_palm_verification: z.boolean(), preset_cache_ttl_seconds: z.number() }),
});

/** How a client authenticates in a body: client_secret_post, or private_key_jwt (RFC 7523 §2.2). */
const clientAuthentication = {
  client_id: filled(100).optional(),
  client_secret: filled(200).optional(),
  client_assertion_type: z
    .literal('urn:ietf:params:oauth:client-assertion-type:jwt-bearer', {
      error: 'client_assertion_type must be urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    })
    .optional(),
  client_assertion: filled(8192).optional(),
};

/** RFC 9126 §2.1: an authorization request pushed by its client, authenticated as at the token endpoint. */
export const ZPushedAuthorizationRequest = z.object({
  ...authorizationParameters,
  /** Refused: a pushed request cannot point at another (RFC 9126 §2.1). */
  request_uri: plainText(2000).optional(),
  /** RFC 9101 at PAR (RFC 9126 §3): the request as a signed JWT; the form's other parameters are then ignored. */
  request: plainText(16_384).optional(),
  ...clientAuthentication,
});

export const ZPushedAuthorizationResponse = z.object({ request_uri: z.string(), expires_in: z.number() });

/**
 * OpenID Connect RP-Initiated Logout 1.0 §2, as a query (GET) or a form (POST); `csrf_token` only
 * from this service's own confirmation page.
 */
export const ZEndSessionRequest = z.object({
  id_token_hint: plainText(8192).optional(),
  client_id: plainText(100).optional(),
  post_logout_redirect_uri: plainText(2000).optional(),
  state: plainText(1000).optional(),
  ui_locales: plainText(100).optional(),
  logout_hint: plainText(320).optional(),
  csrf_token: plainText(200).optional(),
});

/** `/oauth/authorize/result` as a form post, for client_secret_post and private_key_jwt. */
export const ZAuthorizationResultRequest = z.object({ authorization_id: z.string().max(100), ...clientAuthentication });

/** RFC 6749 §3.3: scope tokens of printable ASCII but `"` and `\`, separated by spaces. */
const scopeParameter = z
  .string()
  .max(1000)
  .regex(/^[\x20\x21\x23-\x5B\x5D-\x7E]*$/, 'scope must be scope tokens (printable ASCII except " and \\) separated by spaces (RFC 6749 §3.3)')
  .optional();

/** RFC 6749 §4.1.3 (with PKCE, RFC 7636 §4.5): a code exchanged for tokens. */
export const ZAuthorizationCodeTokenRequest = z.object({
  grant_type: z.literal('authorization_code'),
  code: filled(200),
  redirect_uri: filled(2000),
  code_verifier: filled(200),
  ...clientAuthentication,
});
/** RFC 6749 §6: a refresh token rotated for a new pair, for at most the scopes granted before. */
export const ZRefreshTokenRequest = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: filled(200),
  scope: scopeParameter,
  ...clientAuthentication,
});
/** RFC 6749 §4.4.2: a client's token for itself. */
export const ZClientCredentialsTokenRequest = z.object({ grant_type: z.literal('client_credentials'), scope: scopeParameter, ...clientAuthentication });

/** A token request of any grant type, told apart by `grant_type`. */
export const ZTokenRequest = z.discriminatedUnion('grant_type', [ZAuthorizationCodeTokenRequest, ZRefreshTokenRequest, ZClientCredentialsTokenRequest], {
  error: `grant_type must be ${grantTypesInWords()} (password and implicit grants are not supported)`,
});
export type TokenRequest = z.infer<typeof ZTokenRequest>;
/** The token request of one grant type. */
export type TokenRequestOf<G extends GrantType> = Extract<TokenRequest, { grant_type: G }>;

/**
 * RFC 6749 §4.4.3: a client's token for itself (client_credentials). No user, so no refresh token,
 * id_token, authorization or user id.
 */
export const ZClientTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.enum(['Bearer', 'DPoP']),
  expires_in: z.number(),
  scope: z.string(),
  issued_at: z.string(),
});

export const ZTokenResponse = z.object({
  access_token: z.string(),
  /** DPoP when the request carried a DPoP proof and the tokens are bound to its key (RFC 9449 §5). */
  token_type: z.enum(['Bearer', 'DPoP']),
  expires_in: z.number(),
  scope: z.string(),
  granted_scopes: z.array(z.string()),
  authorization_id: z.string(),
  app_scoped_user_id: z.string(),
  issued_at: z.string().optional(),
  refresh_token: z.string().optional(),
  refresh_token_expires_in: z.number().optional(),
  refresh_issued_at: z.string().optional(),
  id_token: z.string().optional(),
  /** RFC 9396 §7 (OpenID4VCI 1.0 §6.2): the credentials granted, each with the identifiers the wallet fetches them by. */
  authorization_details: z.array(ZGrantedCredentialDetail).optional(),
});

export const ZUserTokenRequest = z.object({
  ...clientAuthentication,
  client_id: filled(100),
  identifier: z.string().max(320).optional(),
  user_id: z.string().max(100).optional(),
  email: z.string().max(320).optional(),
  evm_address: z.string().max(100).optional(),
});

export const ZUserTokenResponse = z.object({
  access_token: z.string(),
  token_type: z.literal('Bearer'),
  expires_in: z.number(),
  issued_at: z.string(),
  user_id: z.string(),
  client_id: z.string(),
  authorization_id: z.string(),
  scopes: z.array(z.string()),
});

export const ZRevokeRequest = z.object({
  token: z.string().min(1).max(8192).optional(),
  tokens: z.array(z.string().min(1).max(8192)).max(50).optional(),
  token_type_hint: z.enum(['authorization', 'refresh_token', 'access_token']).optional(),
  authorization_id: z.string().max(100).optional(),
  cascade: z.union([z.boolean(), z.enum(['0', '1', 'true', 'false']), z.literal(0), z.literal(1)]).optional(),
  ...clientAuthentication,
});

export const ZRevokeDetail = z.object({
  subject: z.enum(['token', 'authorization']),
  token_type: z.enum(['refresh_token', 'access_token']).optional(),
  authorization_id: z.string().optional(),
  client_id: z.string().optional(),
  user_id: z.string().optional(),
  status: z.enum(['revoked', 'not_found', 'invalid']),
  reason: z.string().optional(),
});

export const ZRevokeResponse = z.object({ revoked: z.boolean(), revoked_count: z.number(), details: z.array(ZRevokeDetail).optional() });

/** RFC 7662 §2.1. An unknown `token_type_hint` is ignored, as the RFC allows: the search extends to every type. */
export const ZIntrospectionRequest = z.object({
  token: filled(8192),
  token_type_hint: z.string().max(100).optional(),
  ...clientAuthentication,
});

/**
 * The credential issuer's question about the wallets' approvals its live credentials were issued
 * on (`authorization_id`, repeated in a form, or an array): where each stands.
 */
export const ZWalletApprovalsRequest = z.object({
  authorization_id: z
    .union([
      z.uuid({ message: 'must be an authorization id (a UUID)' }),
      z
        .array(z.uuid({ message: 'must be an authorization id (a UUID)' }))
        .min(1)
        .max(50),
    ])
    .transform((ids) => (Array.isArray(ids) ? ids : [ids]).map((id) => id.toLowerCase())),
  ...clientAuthentication,
});
/** Each approval asked about: `active`, `ended` (revoked, or its application revoked), or `unknown` to the identity provider (never a reason to revoke). */
export const ZWalletApprovalsResponse = z.object({
  approvals: z.array(z.object({ authorization_id: z.string(), status: z.enum(['active', 'ended', 'unknown']) })),
});

/** RFC 7662 §2.2; anything not active is `{active: false}` and nothing else. */
export const ZIntrospectionResponse = z.object({
  active: z.boolean(),
  scope: z.string().optional(),
  client_id: z.string().optional(),
  /** `Bearer` or `DPoP` for an access token; absent for a refresh token. */
  token_type: z.enum(['Bearer', 'DPoP']).optional(),
  exp: z.number().optional(),
  iat: z.number().optional(),
  /** The app-scoped (pairwise) user id, as in the token. */
  sub: z.string().optional(),
  /** The token's audience: this service's data API, and the credential issuer beside it for a grant of credentials. */
  aud: z.union([z.string(), z.array(z.string())]).optional(),
  iss: z.string().optional(),
  jti: z.string().optional(),
  /** What the token is bound to: a DPoP key's thumbprint (RFC 9449 §6.2) or a client certificate's (RFC 8705 §3.2). */
  cnf: z.object({ jkt: z.string().optional(), 'x5t#S256': z.string().optional() }).optional(),
  authorization_id: z.string().optional(),
  /** RFC 9396 §9.2: the credentials the token may fetch from the credential issuer. */
  authorization_details: z.array(ZGrantedCredentialDetail).optional(),
  /**
   * To the credential issuer's own client only, per granted credential: its claims, read from the
   * person's data now (a claim whose preset is not valid is absent), and when the first of the
   * verifications behind them expires (seconds since the epoch), if one does.
   */
  credential_data: z.record(z.string(), z.object({ claims: z.record(z.string(), z.unknown()), expires_at: z.number().optional() })).optional(),
});

export const ZUserInfo = z.object({
  sub: z.string(),
  iss: z.string(),
  aud: z.string(),
  authorization_id: z.string(),
  scopes: z.array(z.string()),
  updated_at: z.string().optional(),
  service_id: z.string().nullable().optional(),
  wallet_address: z.string().nullable().optional(),
  email: z.string().nullable().optional(),
  email_verified: z.boolean().optional(),
});

export type TokenResponse = z.infer<typeof ZTokenResponse>;
export type UserTokenResponse = z.infer<typeof ZUserTokenResponse>;
export type RevokeResponse = z.infer<typeof ZRevokeResponse>;
export type RevokeDetail = z.infer<typeof ZRevokeDetail>;
export type UserInfo = z.infer<typeof ZUserInfo>;
export type AuthorizationContext = z.infer<typeof ZAuthorizationContext>;
export type ApproveResponse = z.infer<typeof ZApproveResponse>;
