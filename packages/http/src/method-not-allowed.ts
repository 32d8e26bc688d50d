import type { RequestHandler } from 'express';
import { HttpError } from './errors.js';

/**
 * Terminates a `router.route(path)` chain: a known path with an unsupported method answers 405
 * with the `Allow` header, instead of Express's default 404.
 */
export const methodNotAllowed: RequestHandler = (req, _res, next) => {
  const methods = Object.keys((req.route as { methods?: Record<string, boolean> } | undefined)?.methods ?? {})
    .filter((m) => m !== '_all')
    .map((m) => m.toUpperCase());
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.push('HEAD');
  next(new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here`, { Allow: methods.join(', ') }));
};
