import { handle } from '@svc/http';
import { ZCreateCredentialOfferRequest, ZOfferHandleParams } from '@svc/schemas';
import type { Openid4vciDeps } from '../deps.js';
import { noStore } from '../metadata/http-caching.js';
import { createOffer, type OfferDeps, offerByHandle } from './offers.js';

export const offerDepsOf = (deps: Openid4vciDeps): OfferDeps => ({
  db: deps.db,
  publicUrl: deps.config.publicUrl,
  now: () => deps.clock.now(),
  authorizationServer: deps.config.authorizationServer?.issuer,
});

/** POST /credential-offers: an integrator's offer, with its API key. */
export function createOfferHandler(deps: Openid4vciDeps) {
  const offers = offerDepsOf(deps);
  return handle({ body: ZCreateCredentialOfferRequest }, async ({ body }, _req, res) => {
    res
      .status(201)
      .set(noStore)
      .json(await createOffer(offers, res.locals.caller!, body));
  });
}

/** GET /credential-offers/:handle: the offer at its credential_offer_uri, for the wallet. */
export function offerHandler(deps: Openid4vciDeps) {
  const offers = offerDepsOf(deps);
  return handle({ params: ZOfferHandleParams }, async ({ params }, _req, res) => {
    res.set(noStore).json(await offerByHandle(offers, params.handle));
  });
}
