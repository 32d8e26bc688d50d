import type { Request, Response } from 'express';
import type { AppDeps } from '../deps.js';
import { invalidDpopProof } from '../errors.js';
import type { Application } from '../services/clients.js';

/** The URL the client addressed: the public issuer URL and this route's path (RFC 9449 `htu`). */
export const requestUrl = (deps: AppDeps, req: Request) => `${deps.config.issuer}${req.path}`;

/**
 * The DPoP key a token request binds its tokens to (RFC 9449 §5), or undefined for Bearer. A
 * client registered as requiring DPoP must send a proof; every proof here must carry the current
 * nonce, which each answer hands out in DPoP-Nonce.
 */
export async function tokenRequestBinding(deps: AppDeps, req: Request, res: Response, app: Application): Promise<string | undefined> {
  const proof = req.get('dpop');
  if (proof === undefined) {
    if (app.requiresDpop) throw invalidDpopProof('This client must send a DPoP proof: its tokens are DPoP-bound');
    return undefined;
  }
  res.set('DPoP-Nonce', deps.dpop.nonce());
  return deps.dpop.verify(proof, { method: req.method, url: requestUrl(deps, req), requireNonce: true });
}
