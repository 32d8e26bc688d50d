import { handle } from '@svc/http';
import { PRE_AUTHORIZED_CODE_GRANT, ZPreAuthorizedTokenRequest } from '@svc/schemas';
import { unsupportedGrantType } from './errors.js';
import type { Openid4vciDeps } from './deps.js';
import { noStore } from './metadata/http-caching.js';
import { exchangePreAuthorizedCode } from './offers/offers.js';
import { offerDepsOf } from './offers/offers.handlers.js';

/** POST /token: the pre-authorized code (and its tx_code) for an access token, DPoP-bound when a proof comes with it. */
export function tokenHandler(deps: Openid4vciDeps) {
  const offers = offerDepsOf(deps);
  // Wallets send more than the grant needs (`resource`, the drafts' `user_pin`): ignored, as OAuth says.
  return handle({ body: ZPreAuthorizedTokenRequest }, async ({ body }, req, res) => {
    if (body.grant_type !== PRE_AUTHORIZED_CODE_GRANT) throw unsupportedGrantType();
    const proof = req.get('dpop');
    const jkt =
      proof === undefined
        ? undefined
        : await deps.walletDpop.token.verify(proof, { method: 'POST', url: `${deps.config.publicUrl}/token`, requireNonce: false });
    res.set({ ...noStore, Pragma: 'no-cache' }).json(await exchangePreAuthorizedCode(offers, body['pre-authorized_code'], body.tx_code, jkt));
  });
}
