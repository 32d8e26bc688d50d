import type { PresetErrorCode } from './contract-types.js';

/** Any answer other than success: the HTTP status, the machine-readable `error`, and the body as sent. */
export class SvcApiError extends Error {
  override name = 'SvcApiError';
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    readonly body: unknown,
    readonly headers: Headers,
  ) {
    super(`${status} ${error}: ${description}`);
  }
}

/** RFC 6749 / 6750 errors of the OAuth endpoints: `invalid_grant`, `invalid_client`, `invalid_token`, … */
export class OAuthApiError extends SvcApiError {
  override name = 'OAuthApiError';
}

/** 400 with `details`: each offending field (`body.presets[1]`) and why. */
export class ValidationApiError extends SvcApiError {
  override name = 'ValidationApiError';
  constructor(
    status: number,
    error: string,
    description: string,
    readonly details: { field: string; message: string }[],
    body: unknown,
    headers: Headers,
  ) {
    super(status, error, description, body, headers);
  }
}

/** The data endpoints' errors, with the spec's code (E4003 scope missing, E4010 reauthorize, …). */
export class PresetApiError extends SvcApiError {
  override name = 'PresetApiError';
  constructor(
    status: number,
    error: string,
    description: string,
    readonly code: PresetErrorCode,
    readonly subcode: string | undefined,
    readonly context: Record<string, unknown> | undefined,
    body: unknown,
    headers: Headers,
  ) {
    super(status, error, description, body, headers);
  }

  /** E4010, E4041, E4042: the user must authorize again, or the token be refreshed. */
  get needsNewToken(): boolean {
    return this.code === 'E4010' || this.code === 'E4041' || this.code === 'E4042';
  }
}

/**
 * 401 E4011 (RFC 9470 step-up): the read touches a preset of high or critical sensitivity and the
 * token's sign-in is weaker or older than the application asks. Send the person through
 * authorization again with `acrValues` and `maxAge` (e.g. `authorizationUrl({acr_values, max_age})`).
 */
export class InsufficientUserAuthenticationError extends PresetApiError {
  override name = 'InsufficientUserAuthenticationError';
  /** The acr to ask for (`acr_values`), when the application sets one. */
  get acrValues(): string | undefined {
    return typeof this.context?.acr_values === 'string' ? this.context.acr_values : undefined;
  }
  /** The `max_age` to ask for, in seconds, when the application sets one. */
  get maxAge(): number | undefined {
    return typeof this.context?.max_age === 'number' ? this.context.max_age : undefined;
  }
}

/** 429: over a rate limit; `retryAfterSeconds` from Retry-After. */
export class RateLimitApiError extends SvcApiError {
  override name = 'RateLimitApiError';
  get retryAfterSeconds(): number | undefined {
    const value = Number(this.headers.get('retry-after'));
    return Number.isFinite(value) && value > 0 ? value : undefined;
  }
}

/**
 * 409 from proving an action: the person proved it as often as it allows this period. `nullifier`
 * is the same one their earlier proofs were counted under, for your backend to recognize them by.
 */
export class MaxVerificationsReachedError extends SvcApiError {
  override name = 'MaxVerificationsReachedError';
  constructor(
    status: number,
    error: string,
    description: string,
    readonly nullifier: string,
    body: unknown,
    headers: Headers,
  ) {
    super(status, error, description, body, headers);
  }
}

/** 403 from proving an action that counts unique humans only: the person has not completed palm verification. */
export class NotUniqueHumanError extends SvcApiError {
  override name = 'NotUniqueHumanError';
}

const OAUTH_CODES = new Set([
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_token',
  'access_denied',
]);

/** The one place an error answer becomes a typed error. */
export function toApiError(status: number, body: unknown, headers: Headers): SvcApiError {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const error = typeof b.error === 'string' ? b.error : `http_${status}`;
  const description = typeof b.error_description === 'string' ? b.error_description : error;
  if (typeof b.error_code === 'string') {
    return new (b.error_code === 'E4011' ? InsufficientUserAuthenticationError : PresetApiError)(
      status,
      error,
      description,
      b.error_code as PresetErrorCode,
      b.error_subcode as string | undefined,
      b.context as Record<string, unknown> | undefined,
      body,
      headers,
    );
  }
  if (error === 'max_verifications_reached' && typeof b.nullifier === 'string')
    return new MaxVerificationsReachedError(status, error, description, b.nullifier, body, headers);
  if (error === 'not_unique_human') return new NotUniqueHumanError(status, error, description, body, headers);
  if (status === 429) return new RateLimitApiError(status, error, description, body, headers);
  if (Array.isArray(b.details)) return new ValidationApiError(status, error, description, b.details as { field: string; message: string }[], body, headers);
  if (OAUTH_CODES.has(error)) return new OAuthApiError(status, error, description, body, headers);
  return new SvcApiError(status, error, description, body, headers);
}
