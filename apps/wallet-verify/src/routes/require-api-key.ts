import type { RequestHandler } from 'express';
import { type ApiKeyAuthenticator, type ApiKeyRecord, type KeyLimiter, rateLimitHeaders } from '@svc/api-keys';
import { ApiKeyError, RateLimitExceededError, SANDBOX_KEY } from '../errors.js';

declare module 'express-serve-static-core' {
  interface Locals {
    apiKey?: ApiKeyRecord;
  }
}

/**
 * X-SVC-API-Key: 401 without it or for an unknown key, 403 for a disabled key. Every request
 * with a known active key is counted, against the key and its organization's budget (so unknown
 * wallets cannot be probed for free, nor more keys buy more requests), and carries the
 * X-RateLimit-* headers; over either, the spec's 429; a key lacking `permission` is refused after
 * counting.
 */
export function requireApiKey(auth: ApiKeyAuthenticator, limiter: KeyLimiter, permission: string): RequestHandler {
  return async (req, res, next) => {
    const result = await auth.authenticate(req.headers['x-svc-api-key']);
    if (result.outcome === 'missing') throw new ApiKeyError(401, 'Missing API key');
    if (result.outcome === 'unknown') throw new ApiKeyError(401, 'Invalid / disabled API key');
    if (result.outcome === 'sandbox') throw new ApiKeyError(401, SANDBOX_KEY);
    if (result.outcome === 'disabled') throw new ApiKeyError(403, 'Invalid / disabled API key');
    const { key } = result;
    const decision = await limiter.consume(key.id, key);
    const headers = rateLimitHeaders(decision);
    // setHeader, not res.set: Express's walks the object and re-checks each name for Content-Type.
    for (const name in headers) res.setHeader(name, headers[name]!);
    if (!decision.allowed) throw new RateLimitExceededError(decision.retryAfterSeconds, headers);
    if (!key.permissions.includes(permission)) throw new ApiKeyError(403, 'Invalid / disabled API key');
    res.locals.apiKey = key;
    next();
  };
}
