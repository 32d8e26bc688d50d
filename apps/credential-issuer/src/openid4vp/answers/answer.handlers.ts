import { handle } from '@svc/http';
import { ZDcApiPresentationResponse, ZPresentationRequestParams, ZWalletPresentationResponse } from '@svc/schemas';
import { takeAnswer } from './answer.js';
import { responseUri } from '../requests/create-request.handlers.js';
import type { Openid4vpDeps } from '../deps.js';
import { notForDcApi, presentationRefused, presentationRequestNotFound, requestNotOpen, unexpectedOrigin } from '../errors.js';
import { findRequest, NOT_OPEN, resultOf } from '../requests/presentation-requests.js';

/**
 * POST /presentation-requests/:id/response: the wallet's answer (direct_post.jwt, OpenID4VP 1.0
 * §8.3), a form with one JWE. Public, as the wallet calls it: anyone who fetched the request object
 * can encrypt to its key, which is why a refused answer does not close the request (recordOutcome).
 * A verified answer to a request with a redirect_uri is answered with where the wallet sends the
 * person: that URI with the response code reading the result needs (§8.2).
 */
export function walletResponseHandler(deps: Openid4vpDeps) {
  return handle({ params: ZPresentationRequestParams, body: ZWalletPresentationResponse }, async ({ params, body }, _req, res) => {
    const request = await findRequest(deps.db, params.id, deps.clock.now(), deps.keyEncryption);
    if (request?.status !== 'pending') throw requestNotOpen(NOT_OPEN);
    const { outcome, redirectTo } = await takeAnswer(deps, request, body.response, {
      kind: 'direct_post',
      responseUri: responseUri(deps.config.publicUrl, request.id),
    });
    if (outcome.status === 'failed') throw presentationRefused(outcome.errors?.[0]?.message ?? 'The presentation was refused');
    res.set('Cache-Control', 'no-store').json(redirectTo ? { redirect_uri: redirectTo } : {});
  });
}

/**
 * POST /presentation-requests/:id/dc-api-response: what a page got from the Digital Credentials
 * API, relayed by the integrator's backend with its API key, with the page's origin. The origin
 * must be one the request named, and the key binding must be for it, so a forged origin gains nothing.
 */
export function dcApiResponseHandler(deps: Openid4vpDeps) {
  return handle({ params: ZPresentationRequestParams, body: ZDcApiPresentationResponse }, async ({ params, body }, _req, res) => {
    const request = await findRequest(deps.db, params.id, deps.clock.now(), deps.keyEncryption);
    if (!request || request.organizationId !== res.locals.caller!.organizationId) throw presentationRequestNotFound();
    if (request.status !== 'pending') throw requestNotOpen(`This presentation request is ${request.status}; an answer changes nothing now`);
    if (!request.asked.expected_origins) throw notForDcApi();
    if (!request.asked.expected_origins.includes(body.origin)) throw unexpectedOrigin(body.origin);
    const { outcome, closed } = await takeAnswer(deps, request, body.response.response, { kind: 'dc_api', origin: body.origin });
    res
      .set('Cache-Control', 'no-store')
      .json(resultOf(closed ? { ...request, status: outcome.status, result: outcome, responseCodeHash: null } : { ...request, lastRefusal: outcome }));
  });
}
