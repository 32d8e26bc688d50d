// The identity provider's failures, in one list: every error a route or service throws on purpose
// is made here, named after the spec or RFC code it answers with.
import { authChallenge, ForbiddenError, HttpError, NotFoundError, RateLimitedError, UnauthorizedError } from '@svc/http';
import type { PresetError as PresetErrorBody, PresetErrorCode } from '@svc/schemas';

/** Why a presented access token was refused. */
export type Rejection = 'missing' | 'expired' | 'invalid' | 'revoked';

/** RFC 6749 §5.2 / RFC 6750 §3.1 errors, answered as `{error, error_description}`. */
export class OAuthError extends HttpError {
  override name = 'OAuthError';
  constructor(code: string, description: string, status = 400, headers: Record<string, string> = {}) {
    super(status, code, description, headers);
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
export const invalidScope = (d: string) => new OAuthError('invalid_scope', d);
export const unsupportedGrantType = () =>
  new OAuthError(
    'unsupported_grant_type',
    'grant_type must be authorization_code, refresh_token or client_credentials (password and implicit grants are not supported)',
  );
export const unauthorizedClient = (d: string) => new OAuthError('unauthorized_client', d);
export const invalidDpopProof = (d: string) => new OAuthError('invalid_dpop_proof', d);
/** RFC 9449 §8: the proof needs the server's current nonce, sent in DPoP-Nonce. */
export const useDpopNonce = (nonce: string) =>
  new OAuthError('use_dpop_nonce', 'Sign the DPoP proof with the nonce in the DPoP-Nonce header', 400, { 'DPoP-Nonce': nonce });
/** The headers of a DPoP refusal at a protected resource: its challenge (RFC 9449 §7.1), and DPoP-Nonce if it has one. */
export const dpopChallengeHeaders = (err: OAuthError, algs: string[]) => ({
  ...err.headers,
  'WWW-Authenticate': authChallenge('DPoP', { error: err.code, error_description: err.description, algs: algs.join(' ') }),
});
/**
 * A DPoP failure at a protected resource: 401 with a DPoP challenge (RFC 9449 §7.1), the OAuth
 * error kept (invalid_token, invalid_dpop_proof or use_dpop_nonce).
 */
export const dpopChallenge = (err: OAuthError, algs: string[]) => new OAuthError(err.code, err.description, 401, dpopChallengeHeaders(err, algs));
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
export const invalidClient = (d = 'Client authentication failed', basic = false) =>
  new OAuthError('invalid_client', d, 401, basic ? { 'WWW-Authenticate': authChallenge('Basic', { realm: 'svc', charset: 'UTF-8' }) } : {});
/** RFC 6750 §3.1: a valid token without the scope this resource needs. */
export const insufficientScope = (scope: string) => {
  const d = `This token does not carry the scope ${scope}`;
  return new OAuthError('insufficient_scope', d, 403, {
    'WWW-Authenticate': authChallenge('Bearer', { error: 'insufficient_scope', error_description: d, scope }),
  });
};
export const invalidToken = (d = 'The access token is invalid, expired or revoked') =>
  new OAuthError('invalid_token', d, 401, { 'WWW-Authenticate': authChallenge('Bearer', { error: 'invalid_token', error_description: d }) });

const PRESET_ERRORS = {
  E4003: { status: 403, error: 'insufficient_scope' },
  E4004: { status: 409, error: 'verification_unavailable' },
  E4010: { status: 401, error: 'reauthorization_required' },
  E4011: { status: 401, error: 'insufficient_user_authentication' },
  E4041: { status: 401, error: 'token_expired' },
  E4042: { status: 401, error: 'invalid_token' },
  E4044: { status: 404, error: 'preset_not_found' },
} as const satisfies Record<PresetErrorCode, { status: number; error: string }>;

type PresetContext = Record<string, string | number | boolean | null | string[]>;

/** The spec's preset error: `{error, error_code, error_description, error_subcode?, context?}`. */
export class PresetError extends HttpError {
  override name = 'PresetError';
  constructor(
    readonly errorCode: PresetErrorCode,
    description: string,
    /** `headers`: a challenge of another scheme (DPoP) instead of the Bearer one, and its companions. */
    readonly extra: { subcode?: string; context?: PresetContext; headers?: Record<string, string> } = {},
  ) {
    const { status, error } = PRESET_ERRORS[errorCode];
    // RFC 6750 §3: token failures on a protected resource say so in WWW-Authenticate.
    const challenge: Record<string, string> =
      status === 401 ? { 'WWW-Authenticate': authChallenge('Bearer', { error: 'invalid_token', error_description: description }) } : {};
    super(status, error, description, { ...challenge, ...extra.headers });
  }

  override toBody(): PresetErrorBody {
    return {
      error: this.code,
      error_code: this.errorCode,
      error_description: this.description,
      ...(this.extra.subcode ? { error_subcode: this.extra.subcode } : {}),
      ...(this.extra.context ? { context: this.extra.context } : {}),
    };
  }
}

const REJECTIONS: Record<Rejection, string> = {
  missing: 'An access token is required',
  expired: 'The access token has expired',
  invalid: 'The access token is invalid',
  revoked: 'The access token has been revoked',
};

/**
 * A refused bearer token as an RFC 6750 error (OAuth endpoints) or as E4041/E4042 (data endpoints);
 * `why` words it more precisely (a token of the other environment).
 */
export function tokenRejected(rejection: Rejection, style: 'oauth' | 'data', why?: string): HttpError {
  const description = why ?? REJECTIONS[rejection];
  if (style === 'data') return new PresetError(rejection === 'expired' ? 'E4041' : 'E4042', description, { subcode: `token_${rejection}` });
  // RFC 6750 §3.1: a request without credentials is not told an error code in the challenge.
  return rejection === 'missing'
    ? new OAuthError('invalid_token', description, 401, { 'WWW-Authenticate': authChallenge('Bearer', { realm: 'svc' }) })
    : invalidToken(description);
}

/** An error after the redirect URI is trusted: sent back to the client (RFC 6749 §4.1.2.1). */
export class RedirectableError extends Error {
  override name = 'RedirectableError';
  constructor(
    readonly code: string,
    readonly description: string,
  ) {
    super(description);
  }
}

export const authorizationNotFound = () => new NotFoundError('No such authorization', 'authorization_not_found');
/** A decision the authorization's state no longer allows. */
export const authorizationConflict = (d: string) => new HttpError(409, 'invalid_request', d);
export const decisionScope = (d: string) => new HttpError(400, 'invalid_scope', d);
/** The deciding session does not meet what the request asked of the sign-in (prompt=login, max_age, an acr): the consent page asks for it. */
export const signInRequired = () =>
  new HttpError(403, 'login_required', 'This request asks for a newer or stronger sign-in than this session’s: open its consent page to sign in again');

export const palmVerificationRequired = (appName: string) =>
  new HttpError(403, 'palm_verification_required', `${appName} requires palm verification, which this account has not completed`);

/** `why`: a reason more precise than a missing session (a session token of the other environment). */
export const sessionRequired = (why?: string) =>
  new UnauthorizedError(why ?? 'Sign in first: a session cookie or Authorization: Bearer <session_token> is required', 'login_required', {
    'WWW-Authenticate': authChallenge('Bearer', { realm: 'svc' }),
  });
export const csrfFailed = (d = 'The CSRF token is missing or wrong; reload the page and try again') => new ForbiddenError(d, 'csrf_failed');
export const wrongPassword = () => new UnauthorizedError('The email or password is wrong', 'invalid_credentials');
/** A password-reset link that is unknown, used, expired or replaced by a newer one: one answer for all, and nothing changes. */
export const resetLinkInvalid = () =>
  new HttpError(400, 'invalid_reset_token', 'This password-reset link is unknown, used or expired: ask for a new one (POST /auth/password-reset)');
export const signInSlowedDown = (retryAfterSeconds: number) =>
  new RateLimitedError(retryAfterSeconds, 'Too many failed sign-ins from here; wait and try again');

export const notAMember = () => new NotFoundError('You are not a member of any organization', 'organization_not_found');
export const ownerOnly = (what = 'rename it') => new ForbiddenError(`Only the organization owner may ${what}`, 'forbidden');
export const developerAuthRequired = () =>
  new UnauthorizedError('Client credentials (HTTP Basic), a developer session or a personal access token are required', 'unauthorized', {
    'WWW-Authenticate': authChallenge('Basic', { realm: 'svc' }),
  });

// Integrator self-service (developer/, sandbox/, registration/).
/** A personal access token, initial access token or registration access token that is unknown, expired or revoked. */
export const developerTokenRejected = (why = 'The token is unknown, expired or revoked') =>
  new UnauthorizedError(why, 'invalid_token', { 'WWW-Authenticate': authChallenge('Bearer', { error: 'invalid_token', error_description: why }) });
export const signupClosed = () => new ForbiddenError('Sign-up is by invitation here: ask an owner of your organization to invite your email', 'signup_closed');
/** An invitation token that is unknown, expired, used, or for another email: one answer for all. */
export const forbiddenInvitation = (why?: string) =>
  new ForbiddenError(why ?? 'The invitation is unknown, expired, already used, or for another email', 'invitation_invalid');
export const tokenNotFound = () => new NotFoundError('No such live token of yours', 'token_not_found');
export const memberNotFound = () => new NotFoundError('No such member of your organization', 'member_not_found');
export const accountExists = () => new HttpError(409, 'account_exists', 'An account with this email exists: sign in instead (POST /auth/session)');
/** A sign-up link that is unknown, used, expired, or whose sign-up can no longer be: one answer for all. */
export const signupLinkInvalid = () => new HttpError(400, 'signup_link_invalid', 'This sign-up link is unknown, used or expired: sign up again for a new one');
/** The password given with a sign-up link is not the one chosen at sign-up. */
export const signupPasswordWrong = () =>
  new UnauthorizedError('This is not the password chosen at sign-up (after a few wrong ones the link stops working)', 'invalid_password');
export const applicationNotFound = () => new NotFoundError('No such application in your organization', 'application_not_found');
export const apiKeyNotFound = () => new NotFoundError('No such API key in your organization', 'api_key_not_found');
export const testUserNotFound = () => new NotFoundError('No such test user in your organization', 'test_user_not_found');
/** A request that is well-formed but names something in a state that forbids it (a revoked application, a duplicate member). */
export const conflict = (code: string, d: string) => new HttpError(409, code, d);
export const onlyInTheSandbox = () => new NotFoundError('Not found: test data exists only in the sandbox environment', 'not_found');
export const noActiveAuthorization = () => new NotFoundError('No active authorization of this client for that user', 'authorization_not_found');

export const rateLimited = (retryAfterSeconds: number, description: string, headers: Record<string, string> = {}) =>
  new RateLimitedError(retryAfterSeconds, description, headers);
export const webhookNotFound = () => new NotFoundError('No such webhook endpoint in your organization', 'webhook_not_found');
export const deliveryNotFound = () => new NotFoundError('No such delivery of this webhook endpoint', 'delivery_not_found');

// One human, one action (actions/).
export const actionNotFound = () => new NotFoundError('No such action in this organization', 'action_not_found');
export const actionExists = (name: string) => conflict('action_exists', `The organization has an action named ${name} already`);
export const proofNotFound = () => new NotFoundError('No proof of this action under this nullifier', 'proof_not_found');
export const notUniqueHuman = () =>
  new ForbiddenError('This action counts unique humans only: the person has not completed palm verification', 'not_unique_human');

/** 409: the person proved the action as often as it allows this period; the nullifier says whose count it is. */
export class MaxVerificationsReached extends HttpError {
  override name = 'MaxVerificationsReached';
  constructor(
    readonly nullifier: string,
    max: number,
  ) {
    super(409, 'max_verifications_reached', `This person has proved this action ${max === 1 ? 'once' : `${max} times`}, as often as it allows this period`);
  }

  override toBody() {
    return { ...super.toBody(), nullifier: this.nullifier };
  }
}

// Passkeys (passkeys/).
export const passkeyNotFound = () => new NotFoundError('No such passkey of yours', 'passkey_not_found');
/** A sign-in or registration challenge that is unknown, used, expired, or for something else: one answer for all. */
export const passkeyChallengeInvalid = () =>
  new HttpError(400, 'invalid_challenge', 'This passkey challenge is unknown, used or expired: ask for new options and try again');
/** A new passkey that does not verify (origin, RP ID, user verification, attestation): `why` says which. */
export const passkeyRegistrationRefused = (why: string) => new HttpError(400, 'invalid_registration', `The passkey was not added: ${why}`);
export const passkeyExists = () => new HttpError(409, 'passkey_exists', 'This passkey is registered already');
/** A signed challenge that does not verify, or a passkey this service does not know: one code, the reason in the description. */
export const passkeyRefused = (why: string) => new UnauthorizedError(`The passkey was not accepted: ${why}`, 'invalid_credentials');
export const lastSignInMethod = () =>
  new HttpError(409, 'last_sign_in_method', 'This passkey is the last way to sign in to this account: add another passkey or a password first');
