import type { IncomingMessage } from 'node:http';

/** The schemes an access token is presented with: RFC 6750 §2.1 and RFC 9449 §7.1. */
export type TokenScheme = 'Bearer' | 'DPoP';

/** An access token as the Authorization header presents it. */
export interface PresentedToken {
  scheme: TokenScheme;
  /**
   * Undefined when the header names the scheme but is garbage: not the scheme, one space and a
   * token68, or sent twice (which of two tokens would be meant?). Refused as a token that is not one.
   */
  token: string | undefined;
}

/** RFC 7235 §2.1 token68, which RFC 6750 §2.1 calls b64token: what a bearer token is made of. */
export const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

const schemeOf = (name: string): TokenScheme | undefined => {
  // RFC 7235 §2.1: a scheme's name is case-insensitive.
  const lower = name.toLowerCase();
  return lower === 'bearer' ? 'Bearer' : lower === 'dpop' ? 'DPoP' : undefined;
};

/**
 * The one reading of `Authorization: Bearer <token>` and `Authorization: DPoP <token>` in every
 * service. Undefined when the request presents no access token: no header, another scheme
 * (Basic), or the scheme without a token.
 */
export function readAuthorization(req: Pick<IncomingMessage, 'headers' | 'headersDistinct'>): PresentedToken | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const space = header.indexOf(' ');
  if (space < 0) return undefined;
  const scheme = schemeOf(header.slice(0, space));
  if (!scheme) return undefined;
  // Node keeps the first of two Authorization headers and drops the other: only headersDistinct tells.
  const once = (req.headersDistinct?.authorization?.length ?? 1) === 1;
  const token = header.slice(space + 1);
  return { scheme, token: once && TOKEN68.test(token) ? token : undefined };
}
