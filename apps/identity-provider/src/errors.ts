// The identity provider's failures, in one list: every error a route or service throws on purpose
// is made here, named after the spec or RFC code it answers with.
import { ForbiddenError, HttpError, NotFoundError, RateLimitedError, UnauthorizedError } from '@svc/http';
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
  new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token (password and implicit grants are not supported)');
export const invalidDpopProof = (d: string) => new OAuthError('invalid_dpop_proof', d);
/** RFC 9449 §8: the proof needs the server's current nonce, sent in DPoP-Nonce. */
export const useDpopNonce = (nonce: string) =>
  new OAuthError('use_dpop_nonce', 'Sign the DPoP proof with the nonce in the DPoP-Nonce header', 400, { 'DPoP-Nonce': nonce });
/**
 * A DPoP failure at a protected resource: 401 with a DPoP challenge (RFC 9449 §7.1), the OAuth
 * error kept (invalid_token, invalid_dpop_proof or use_dpop_nonce).
 */
export const dpopChallenge = (err: OAuthError, algs: string[]) =>
  new OAuthError(err.code, err.description, 401, {
    ...err.headers,
    'WWW-Authenticate': `DPoP error="${err.code}", error_description="${err.description.replace(/"/g, "'")}", algs="${algs.join(' ')}"`,
  });
export const invalidGrant = (d: string) => new OAuthError('invalid_grant', d);
export const invalidClient = (d = 'Client authentication failed', basic = false) =>
  new OAuthError('invalid_client', d, 401, basic ? { 'WWW-Authenticate': 'Basic realm="svc", charset="UTF-8"' } : {});
export const invalidToken = (d = 'The access token is invalid, expired or revoked') =>
  new OAuthError('invalid_token', d, 401, { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${d}"` });

const PRESET_ERRORS = {
  E4003: { status: 403, error: 'insufficient_scope' },
  E4004: { status: 409, error: 'verification_unavailable' },
  E4010: { status: 401, error: 'reauthorization_required' },
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
    readonly extra: { subcode?: string; context?: PresetContext } = {},
  ) {
    const { status, error } = PRESET_ERRORS[errorCode];
    // RFC 6750 §3: token failures on a protected resource say so in WWW-Authenticate.
    const headers: Record<string, string> = status === 401 ? { 'WWW-Authenticate': `Bearer error="invalid_token", error_description="${description}"` } : {};
    super(status, error, description, headers);
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

/** A refused bearer token as an RFC 6750 error (OAuth endpoints) or as E4041/E4042 (data endpoints). */
export function tokenRejected(rejection: Rejection, style: 'oauth' | 'data'): HttpError {
  const description = REJECTIONS[rejection];
  if (style === 'data') return new PresetError(rejection === 'expired' ? 'E4041' : 'E4042', description, { subcode: `token_${rejection}` });
  // RFC 6750 §3.1: a request without credentials is not told an error code in the challenge.
  return rejection === 'missing' ? new OAuthError('invalid_token', description, 401, { 'WWW-Authenticate': 'Bearer realm="svc"' }) : invalidToken(description);
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
export const palmVerificationRequired = (appName: string) =>
  new HttpError(403, 'palm_verification_required', `${appName} requires palm verification, which this account has not completed`);

export const sessionRequired = () =>
  new UnauthorizedError('Sign in first: a session cookie or Authorization: Bearer <session_token> is required', 'login_required', {
    'WWW-Authenticate': 'Bearer realm="svc"',
  });
export const csrfFailed = (d = 'The CSRF token is missing or wrong; reload the page and try again') => new ForbiddenError(d, 'csrf_failed');
export const wrongPassword = () => new UnauthorizedError('The email or password is wrong', 'invalid_credentials');
export const signInSlowedDown = (retryAfterSeconds: number) =>
  new RateLimitedError(retryAfterSeconds, 'Too many failed sign-ins from here; wait and try again');

export const notAMember = () => new NotFoundError('You are not a member of any organization', 'organization_not_found');
export const ownerOnly = () => new ForbiddenError('Only the organization owner may rename it', 'forbidden');
export const developerAuthRequired = () =>
  new UnauthorizedError('Client credentials (HTTP Basic) or a developer session are required', 'unauthorized', { 'WWW-Authenticate': 'Basic realm="svc"' });
export const noActiveAuthorization = () => new NotFoundError('No active authorization of this client for that user', 'authorization_not_found');

export const rateLimited = (retryAfterSeconds: number, description: string, headers: Record<string, string> = {}) =>
  new RateLimitedError(retryAfterSeconds, description, headers);
