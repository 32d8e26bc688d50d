import { HttpError } from '@svc/http';
import type { PresetError as PresetErrorBody, PresetErrorCode } from '@svc/schemas';
import type { Rejection } from './services/access-tokens.js';

/** RFC 6749 §5.2 / RFC 6750 §3.1 errors, answered as `{error, error_description}`. */
export class OAuthError extends HttpError {
  override name = 'OAuthError';
  constructor(code: string, description: string, status = 400, headers: Record<string, string> = {}) {
    super(status, code, description, headers);
  }
}

export const invalidRequest = (d: string) => new OAuthError('invalid_request', d);
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
