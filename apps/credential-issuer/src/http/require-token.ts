import type { RequestHandler } from 'express';
import { type ApiKeyAuthenticator, type KeyLimiter, rateLimitHeaders } from '@svc/api-keys';
import { overLimit, permissionMissing, tokenDisabled, tokenFromSandbox, tokenMissing, tokenUnknown } from './errors.js';

/** Who an API token speaks for: its key, and the key's organization. */
export interface ApiCaller {
  apiKeyId: string;
  organizationId: string;
}

declare module 'express-serve-static-core' {
  interface Locals {
    caller?: ApiCaller;
  }
}

/** What the guard needs: the keys, and the limiter of their hourly and burst limits and organizations' budgets. */
export interface ApiTokenDeps {
  authenticator: ApiKeyAuthenticator;
  limiter: KeyLimiter;
}

/**
 * X-API-Token: 401 when missing or unknown, 403 when disabled or lacking `permission`. Every
 * request with a known active key counts against that key's hourly and burst limits and its
 * organization's budget, and carries the X-RateLimit-* headers; over either, 429 with Retry-After.
 */
export function requireToken(deps: ApiTokenDeps, permission: string): RequestHandler {
  return async (req, res, next) => {
    const result = await deps.authenticator.authenticate(req.headers['x-api-token']);
    if (result.outcome === 'missing') throw tokenMissing();
    if (result.outcome === 'unknown') throw tokenUnknown();
    if (result.outcome === 'sandbox') throw tokenFromSandbox();
    if (result.outcome === 'disabled') throw tokenDisabled();
    const decision = await deps.limiter.consume(result.key.id, result.key);
    const headers = rateLimitHeaders(decision);
    res.set(headers);
    if (!decision.allowed) {
      const which = decision.refusedBy === 'burst' ? 'per-second' : 'hourly';
      throw overLimit(
        decision.retryAfterSeconds,
        decision.refusedFor === 'organization'
          ? `This API token’s organization is over its ${which} budget, which all of its tokens share`
          : `This API token is over its ${which === 'per-second' ? 'per-second burst' : 'hourly'} limit`,
        headers,
      );
    }
    if (!result.key.permissions.includes(permission)) throw permissionMissing(permission);
    res.locals.caller = { apiKeyId: result.key.id, organizationId: result.key.organizationId };
    next();
  };
}
