import { handle } from '@svc/http';
import { constantTimeEqual, sha256Hex } from '@svc/secrets';
import { ZPresentationRequestParams, ZPresentationResultQuery } from '@svc/schemas';
import { invalidField } from '../../http/errors.js';
import type { Openid4vpDeps } from '../deps.js';
import { presentationRequestNotFound } from '../errors.js';
import { findRequest, resultOf } from './presentation-requests.js';

/**
 * GET /presentation-requests/:id: pending, verified, failed or expired, with the presets, claims,
 * policy result or failed checks. A request a wallet on the person's device answered (made with a
 * redirect_uri) is read with the response code that wallet's redirect carried, and not without it.
 */
export function presentationResultHandler(deps: Openid4vpDeps) {
  return handle({ params: ZPresentationRequestParams, query: ZPresentationResultQuery }, async ({ params, query }, _req, res) => {
    const request = await findRequest(deps.db, params.id, deps.clock.now(), deps.keyEncryption);
    // Another organization's request is as unknown as one that never was.
    if (!request || request.organizationId !== res.locals.caller!.organizationId) throw presentationRequestNotFound();
    if ('responseCodeHash' in request && request.responseCodeHash) {
      if (query.response_code === undefined)
        throw invalidField('response_code', 'is required: this request was answered by a wallet that sent the person back to your redirect_uri with it');
      if (!constantTimeEqual(sha256Hex(query.response_code), request.responseCodeHash))
        throw invalidField('response_code', 'is not the one this request’s answer sent the person back with');
    }
    res.set('Cache-Control', 'no-store').json(resultOf(request));
  });
}
