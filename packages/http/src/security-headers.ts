import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request } from 'express';

export interface SecurityHeaderOptions {
  /** Overrides the API default `default-src 'none'`; hosted HTML pages need their own. */
  contentSecurityPolicy?: string;
}

/** Headers every response carries: an API answers JSON, is never framed, never cached, never leaks a referrer. */
export function securityHeaders(options: SecurityHeaderOptions = {}): (req: Request, res: ServerResponse<IncomingMessage>) => void {
  const csp = options.contentSecurityPolicy ?? "default-src 'none'; frame-ancestors 'none'";
  const headers = Object.entries({
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Cache-Control': 'no-store',
  });
  return (req, res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    if (req.secure) res.setHeader('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
  };
}
