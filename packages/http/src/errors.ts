/** One field that failed validation: where it is and what was wrong with it. */
export interface FieldIssue {
  field: string;
  message: string;
}

export type ErrorBody = Record<string, unknown>;

/**
 * The base of every failure a handler may throw on purpose. The error handler turns it into
 * `status` and `toBody()`; subclasses named after the spec's codes shape their own bodies.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  /** Whether the answer carries `request_id` (the id to quote to support); false where a spec fixes the body. */
  readonly withRequestId: boolean = true;
  constructor(
    readonly status: number,
    readonly code: string,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }

  toBody(): ErrorBody {
    return { error: this.code, error_description: this.description };
  }
}

export class ValidationError extends HttpError {
  override name = 'ValidationError';
  constructor(
    readonly details: FieldIssue[],
    description = describeIssues(details),
    code = 'invalid_request',
  ) {
    super(400, code, description);
  }

  override toBody(): ErrorBody {
    return { ...super.toBody(), details: this.details };
  }
}

export class UnauthorizedError extends HttpError {
  override name = 'UnauthorizedError';
  constructor(description = 'Authentication is required', code = 'unauthorized', headers: Record<string, string> = {}) {
    super(401, code, description, headers);
  }
}

export class ForbiddenError extends HttpError {
  override name = 'ForbiddenError';
  constructor(description = 'Not allowed', code = 'forbidden') {
    super(403, code, description);
  }
}

export class NotFoundError extends HttpError {
  override name = 'NotFoundError';
  constructor(description = 'Not found', code = 'not_found') {
    super(404, code, description);
  }
}

export class RateLimitedError extends HttpError {
  override name = 'RateLimitedError';
  constructor(retryAfterSeconds: number, description = 'Too many requests', headers: Record<string, string> = {}) {
    super(429, 'rate_limited', description, { ...headers, 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
  }
}

export class ServiceUnavailableError extends HttpError {
  override name = 'ServiceUnavailableError';
  constructor(description: string, retryAfterSeconds?: number, code = 'temporarily_unavailable') {
    super(503, code, description, retryAfterSeconds ? { 'Retry-After': String(Math.ceil(retryAfterSeconds)) } : {});
  }
}

function describeIssues(details: FieldIssue[]): string {
  const first = details[0];
  if (!first) return 'The request is invalid';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${first.field}: ${first.message}${more}`;
}
