import type { RequestHandler } from 'express';

/**
 * CORS for endpoints browsers may call from any origin with bearer or client credentials (the
 * identity provider's token, userinfo and revoke; a browser wallet's calls to the credential
 * issuer). No cookies are honoured cross-origin: credentials mode stays off.
 */
export const openCors: RequestHandler = (req, res, next) => {
  res.set({ 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': 'DPoP-Nonce, WWW-Authenticate, Retry-After' });
  if (req.method === 'OPTIONS') {
    res.set({
      'Access-Control-Allow-Methods': 'GET, POST',
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, DPoP',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
    return;
  }
  next();
};
