import { handle } from '@svc/http';
import { ZPresentationRequestParams } from '@svc/schemas';
import { responseUri } from './create-request.handlers.js';
import type { Openid4vpDeps } from '../deps.js';
import { requestNotOpen } from '../errors.js';
import { findRequest, NOT_OPEN } from './presentation-requests.js';
import { signRequestObject } from './request-object.js';

/** GET /presentation-requests/:id/request-object: the signed request a wallet fetches by its request_uri (public: the URI is the secret). */
export function requestObjectHandler(deps: Openid4vpDeps) {
  return handle({ params: ZPresentationRequestParams }, async ({ params }, _req, res) => {
    const now = deps.clock.now();
    const request = await findRequest(deps.db, params.id, now, deps.keyEncryption);
    // One answer for unknown, answered and expired alike: the URI tells a stranger nothing of the outcome.
    if (request?.status !== 'pending') throw requestNotOpen(NOT_OPEN);
    const jwt = await signRequestObject(
      await deps.verifierKey.signerFor(request.asked.client_id),
      {
        asked: request.asked,
        nonce: request.nonce,
        state: request.state,
        responseKey: request.responseKey.publicJwk,
        responseUri: responseUri(deps.config.publicUrl, request.id),
        expiresAt: request.expiresAt,
        now,
      },
      'direct_post.jwt',
    );
    res.set('Cache-Control', 'no-store').type('application/oauth-authz-req+jwt').send(jwt);
  });
}
