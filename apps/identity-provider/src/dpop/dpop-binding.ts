import type { Request, Response } from 'express';
import type { Config } from '../config.js';
import { invalidDpopProof } from '../errors.js';
import type { Application } from '../clients/application.js';
import { DPOP_ALGORITHMS, type DpopProofs } from '@svc/runtime';
import { clientAlgorithms, isFapi } from '../clients/fapi.js';

/** What checking a DPoP proof at an endpoint needs. */
export interface DpopBindingDeps {
  config: Config;
  dpop: DpopProofs;
}

/** The URL the client addressed: the public issuer URL and this route's path (RFC 9449 `htu`). */
export const requestUrl = (deps: DpopBindingDeps, req: Request) => `${deps.config.issuer}${req.path}`;

/**
 * The DPoP key a token request binds its tokens to (RFC 9449 §5), or undefined for Bearer. A
 * client registered as requiring DPoP must send a proof; every proof here must carry the current
 * nonce, which each answer hands out in DPoP-Nonce.
 */
export async function tokenRequestBinding(deps: DpopBindingDeps, req: Request, res: Response, app: Application): Promise<string | undefined> {
  const proof = req.get('dpop');
  if (proof === undefined) {
    // FAPI 2.0 §5.3.2.1 (7): sender-constrained tokens (DPoP here; mTLS is not offered).
    // A FAPI client authenticating with its certificate has its tokens bound to that instead (RFC 8705).
    const certificateBound = app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth';
    if (app.requiresDpop || (isFapi(app) && !certificateBound)) throw invalidDpopProof('This client must send a DPoP proof: its tokens are DPoP-bound');
    return undefined;
  }
  return verifiedProof(deps, req, res, app, proof);
}

/** The thumbprint of the key behind a proof sent to this endpoint, with the current nonce; the answer hands out the next one. */
function verifiedProof(deps: DpopBindingDeps, req: Request, res: Response, app: Application, proof: string): Promise<string> {
  res.set('DPoP-Nonce', deps.dpop.nonce());
  return deps.dpop.verify(proof, { method: req.method, url: requestUrl(deps, req), requireNonce: true, algorithms: clientAlgorithms(app, DPOP_ALGORITHMS) });
}

/**
 * The DPoP key a pushed authorization request binds its code to (RFC 9449 §10.1): the key of the
 * proof it carries, or else its dpop_jkt; both given, they must name the same key. Undefined when
 * neither is: the code is then bound to nothing but PKCE.
 */
export async function pushedRequestBinding(
  deps: DpopBindingDeps,
  req: Request,
  res: Response,
  app: Application,
  dpopJkt: string | undefined,
): Promise<string | undefined> {
  const proof = req.get('dpop');
  if (proof === undefined) return dpopJkt;
  const jkt = await verifiedProof(deps, req, res, app, proof);
  if (dpopJkt !== undefined && dpopJkt !== jkt) throw invalidDpopProof('dpop_jkt names another key than the one that signed the DPoP proof');
  return jkt;
}
