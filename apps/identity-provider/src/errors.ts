import { HttpError } from '@svc/http';

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
