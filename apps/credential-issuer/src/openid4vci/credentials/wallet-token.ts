/**
 * The guard of the wallet's resource endpoints (/credential, /notification): the access token it
 * presents, found and proven before the handler runs. Either this issuer's own (an offer's, pre-authorized
 * code) or one the identity provider signed for it (authorization code), in both cases sent with
 * the scheme its binding asks for (RFC 9449 §7).
 */
import { readAuthorization } from '@svc/http';
import type { Request, RequestHandler } from 'express';
import type { Openid4vciDeps } from '../deps.js';
import type { VerifiedWalletToken } from '../approvals/authorization-server.js';
import { accessTokenMissing, certificateBoundTokenRefused, invalidAccessToken, invalidDpopProofAtResource } from '../errors.js';
import { offerOfAccessToken } from '../offers/offers.js';

/** The access token as the request presents it: its scheme, and the DPoP proof beside it (RFC 9449 §7). */
export interface PresentedToken {
  token: string;
  scheme: 'Bearer' | 'DPoP';
  proof: string | undefined;
}

export type Offer = NonNullable<Awaited<ReturnType<typeof offerOfAccessToken>>>;

/** Whose the token is: an offer's, or an approval's at the identity provider (its signature checked, not yet asked about). */
export type WalletToken = { presented: PresentedToken } & ({ kind: 'offer'; offer: Offer } | { kind: 'approval'; verified: VerifiedWalletToken });

declare module 'express-serve-static-core' {
  interface Locals {
    /** The wallet's access token, proven (left by requireWalletToken). */
    walletToken?: WalletToken;
  }
}

type WalletTokenDeps = Pick<Openid4vciDeps, 'db' | 'config' | 'clock' | 'authorizationServer'> & { dpop: Openid4vciDeps['walletDpop']['credential'] };

/**
 * RFC 9449 §7: a token bound to the key `jkt` is accepted only with the DPoP scheme and a proof of
 * that key over this request and this token; an unbound token only with the Bearer scheme.
 */
async function checkBinding(deps: WalletTokenDeps, presented: PresentedToken, jkt: string | null | undefined, endpoint: string): Promise<void> {
  if (!jkt) {
    if (presented.scheme === 'DPoP') throw invalidDpopProofAtResource('This access token is not DPoP-bound: send it with the Bearer scheme');
    return;
  }
  if (presented.scheme !== 'DPoP' || presented.proof === undefined)
    throw invalidDpopProofAtResource('This access token is DPoP-bound: send it as Authorization: DPoP <token>, with a DPoP proof of its key');
  const proven = await deps.dpop.verify(presented.proof, {
    method: 'POST',
    url: `${deps.config.publicUrl}${endpoint}`,
    accessToken: presented.token,
    requireNonce: false,
  });
  if (proven !== jkt) throw invalidDpopProofAtResource('The DPoP proof is signed by another key than the one the access token is bound to');
}

function presentedTokenOf(req: Request): PresentedToken {
  const authorization = readAuthorization(req);
  if (!authorization) throw accessTokenMissing();
  // Garbage after the scheme is a token that is not one, refused as an unknown one is.
  if (authorization.token === undefined) throw invalidAccessToken();
  return { token: authorization.token, scheme: authorization.scheme, proof: req.get('dpop') };
}

/** The guard of the wallet endpoint at `endpoint` (the path its DPoP proofs name): leaves the token in `res.locals.walletToken`. */
export function requireWalletToken(deps: WalletTokenDeps, endpoint: '/credential' | '/notification'): RequestHandler {
  return async (req, res, next) => {
    const presented = presentedTokenOf(req);
    const offer = await offerOfAccessToken({ db: deps.db, publicUrl: deps.config.publicUrl, now: () => deps.clock.now() }, presented.token);
    if (offer) {
      await checkBinding(deps, presented, offer.dpopJkt, endpoint);
      res.locals.walletToken = { kind: 'offer', offer, presented };
      return next();
    }
    // The identity provider's tokens are JWTs; this issuer's own are not, and are never sent there.
    const verified = deps.authorizationServer && presented.token.split('.').length === 3 ? await deps.authorizationServer.verify(presented.token) : undefined;
    if (!verified) throw invalidAccessToken();
    if (verified.certificateBound) throw certificateBoundTokenRefused();
    await checkBinding(deps, presented, verified.jkt, endpoint);
    res.locals.walletToken = { kind: 'approval', verified, presented };
    next();
  };
}
