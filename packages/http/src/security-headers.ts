import type { RequestHandler } from 'express';

export interface SecurityHeaderOptions {
  /** Overrides the API default `default-src 'none'`; hosted HTML pages need their own. */
  contentSecurityPolicy?: string;
}

/** Headers every response carries: an API answers JSON, is never framed, never cached, never leaks a referrer. */
export function securityHeaders(options: SecurityHeaderOptions = {}): RequestHandler {
  const csp = options.contentSecurityPolicy ?? "default-src 'none'; frame-ancestors 'none'";
  return (req, res, next) => {
    res.set({
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': 'no-store',
    });
    if (req.secure) res.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
    next();
  };
}
