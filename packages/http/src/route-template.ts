import type { Request } from 'express';

/**
 * The route template a request matched (`/credential-offers/:handle`), never its path: a path
 * parameter may be a secret (an offer's handle, a code), and metrics and logs outlive requests.
 * A request no route matched is `unmatched`.
 */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : 'unmatched';
}
