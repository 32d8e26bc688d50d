import { HttpError, type ErrorBody } from '@svc/http';

/** A sandbox key (sbx_) names what it is: wallet verify has no sandbox. */
export const SANDBOX_KEY = 'Invalid / disabled API key: this is a sandbox key (sbx_), and wallet verify takes production keys only';

/** Wallet verify's fixed texts (spec, "Errors"): the body is `{error: <text>}` and nothing else. */
export class ApiKeyError extends HttpError {
  override name = 'ApiKeyError';
  constructor(status: 401 | 403, text: 'Missing API key' | 'Invalid / disabled API key' | typeof SANDBOX_KEY) {
    super(status, text, text);
  }

  // The spec fixes wallet verify's body to `{error}`; the request id is in the X-Request-Id header.
  override readonly withRequestId = false;

  override toBody(): ErrorBody {
    return { error: this.code };
  }
}

export class WalletNotFoundError extends HttpError {
  override name = 'WalletNotFoundError';
  constructor() {
    super(404, 'Wallet not found', 'Wallet not found');
  }

  // The spec fixes wallet verify's body to `{error}`; the request id is in the X-Request-Id header.
  override readonly withRequestId = false;

  override toBody(): ErrorBody {
    return { error: this.code };
  }
}

/** Wallet verify keeps its one-member body for refusals too; Retry-After says when to come back. */
export class RateLimitExceededError extends HttpError {
  override name = 'RateLimitExceededError';
  constructor(retryAfterSeconds: number, headers: Record<string, string>) {
    super(429, 'Rate limit exceeded', 'Rate limit exceeded', { ...headers, 'Retry-After': String(retryAfterSeconds) });
  }

  // The spec fixes wallet verify's body to `{error}`; the request id is in the X-Request-Id header.
  override readonly withRequestId = false;

  override toBody(): ErrorBody {
    return { error: this.code };
  }
}
