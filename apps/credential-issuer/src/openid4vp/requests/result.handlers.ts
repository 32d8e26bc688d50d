import { handle } from '@svc/http';
import { ZPresentationRequestParams } from '@svc/schemas';
import type { Openid4vpDeps } from '../deps.js';
import { presentationRequestNotFound } from '../errors.js';
import { findRequest, resultOf } from './presentation-requests.js';

/** GET /presentation-requests/:id: pending, verified, failed or expired, with the presets, claims, policy result or failed checks. */
export function presentationResultHandler(deps: Openid4vpDeps) {
  return handle({ params: ZPresentationRequestParams }, async ({ params }, _req, res) => {
    const request = await findRequest(deps.db, params.id, deps.clock.now(), deps.keyEncryption);
    // Another organization's request is as unknown as one that never was.
    if (!request || request.organizationId !== res.locals.caller!.organizationId) throw presentationRequestNotFound();
    res.set('Cache-Control', 'no-store').json(resultOf(request));
  });
}
