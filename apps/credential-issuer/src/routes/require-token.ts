import type { RequestHandler } from 'express';
import type { ApiKeyAuthenticator } from '@svc/api-keys';
import { ForbiddenError, UnauthorizedError } from '@svc/http';
import type { Caller } from '../services/issue-credential.js';

declare module 'express-serve-static-core' {
  interface Locals {
    caller?: Caller;
  }
}

/** X-API-Token: 401 when missing or unknown, 403 when disabled or lacking `permission`. */
export function requireToken(auth: ApiKeyAuthenticator, permission: string): RequestHandler {
  return async (req, res, next) => {
    const result = await auth.authenticate(req.headers['x-api-token']);
    if (result.outcome === 'missing') throw new UnauthorizedError('The X-API-Token header is required', 'unauthorized');
    if (result.outcome === 'unknown') throw new UnauthorizedError('The API token is not valid', 'invalid_token');
    if (result.outcome === 'disabled') throw new ForbiddenError('The API token is disabled', 'forbidden');
    if (!result.key.permissions.includes(permission)) throw new ForbiddenError(`The API token lacks the ${permission} permission`, 'insufficient_permission');
    res.locals.caller = { apiKeyId: result.key.id, organizationId: result.key.organizationId };
    next();
  };
}
