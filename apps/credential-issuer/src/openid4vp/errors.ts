// The verifier's failures toward integrators and wallets: OAuth's error codes where a wallet reads them.
import { HttpError, NotFoundError, RateLimitedError } from '@svc/http';

export const presentationRequestNotFound = () => new NotFoundError('No such presentation request for this organization', 'presentation_request_not_found');
/** The wallet's side: the request's id is unknown, or it is no longer open. */
export const requestNotOpen = (why: string) => new HttpError(400, 'invalid_request', why);
/** An answer that does not decrypt under the request's key: refused, and the request stays open. */
export const undecryptableAnswer = () =>
  new HttpError(400, 'invalid_request', 'The answer does not decrypt under this request’s key (ECDH-ES with A128GCM or A256GCM, to client_metadata.jwks)');
export const alreadyAnswered = () => new HttpError(409, 'already_answered', 'This presentation request was answered already; the first answer is final');
/** A relayed DC API answer from a page this request does not name: refused, and the request stays open. */
export const unexpectedOrigin = (origin: string) =>
  new HttpError(400, 'unexpected_origin', `The origin ${origin} is not one of this request’s expected_origins; the request stays open`);
export const notForDcApi = () =>
  new HttpError(400, 'invalid_request', 'This request was made without expected_origins, so it cannot be answered over the Digital Credentials API');
/** The wallet's presentation was received and a check failed: the result names it. */
export const presentationRefused = (message: string) => new HttpError(400, 'invalid_request', message);
/** An organization holds PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION open requests at most; each closes within 300 s. */
export const tooManyOpenRequests = (limit: number) =>
  new RateLimitedError(60, `This organization has ${limit} presentation requests open, as many as it may: wait for some to be answered or expire`, {
    'Retry-After': '60',
  });
