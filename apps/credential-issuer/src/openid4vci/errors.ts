// OpenID4VCI's failures: the error codes the specification and OAuth 2.0 name, so wallet libraries understand them.
import { HttpError, NotFoundError, ServiceUnavailableError, UnauthorizedError } from '@svc/http';
import { DPOP_ALGORITHMS } from '@svc/runtime';

export const offerNotFound = () => new NotFoundError('No such credential offer, or it was used or has expired', 'offer_not_found');
export const invalidGrant = (description: string) => new HttpError(400, 'invalid_grant', description);
/** A wallet attestation that does not hold, or none where one is required (Attestation-Based Client Authentication). */
export const invalidWalletClient = (description: string) => new HttpError(401, 'invalid_client', description);
export const unsupportedGrantType = () =>
  new HttpError(
    400,
    'unsupported_grant_type',
    'This token endpoint serves the pre-authorized code grant (urn:ietf:params:oauth:grant-type:pre-authorized_code) only',
  );
export const oauthInvalidRequest = (description: string) => new HttpError(400, 'invalid_request', description);
export const invalidAccessToken = () =>
  new HttpError(401, 'invalid_token', 'The access token is unknown or expired', { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
/** No credentials at all: RFC 6750 §3.1 names no error then, only the scheme. */
export const accessTokenMissing = () =>
  new HttpError(401, 'invalid_token', 'An access token is required (Authorization: Bearer, from POST /token)', { 'WWW-Authenticate': 'Bearer' });
export const invalidCredentialRequest = (description: string) => new HttpError(400, 'invalid_credential_request', description);
export const unknownConfiguration = (id: string) =>
  new HttpError(400, 'unknown_credential_configuration', `The access token is for another credential than ${JSON.stringify(id).slice(0, 120)}`);
export const invalidProof = (description: string) => new HttpError(400, 'invalid_proof', description);
/** OpenID4VCI 1.0 §11.3: a notification naming credentials this access token did not receive. */
export const invalidNotificationId = () =>
  new HttpError(400, 'invalid_notification_id', 'No credentials of this access token have that notification_id: send the one the credential response gave');
export const invalidNonce = () => new HttpError(400, 'invalid_nonce', 'The proof’s nonce is unknown, expired or used: get a new one from the nonce endpoint');
/** OpenID4VCI 1.0 §8.3.1.2: the token grants no dataset of this identifier. */
export const unknownCredentialIdentifier = (id: string) =>
  new HttpError(
    400,
    'unknown_credential_identifier',
    `The access token grants no credential ${JSON.stringify(id).slice(0, 120)}: send one of the token response's credential_identifiers`,
  );
/** OpenID4VCI 1.0 §8.3.1.2: the request is right, but this credential cannot be issued to this person. */
export const credentialRequestDenied = (description: string) => new HttpError(400, 'credential_request_denied', description);
export const authorizationServerUnavailable = () =>
  new ServiceUnavailableError('The identity provider that authorized this wallet cannot be reached; try again shortly', 5, 'authorization_server_unavailable');
export const certificateBoundTokenRefused = () =>
  new HttpError(
    401,
    'invalid_token',
    'This issuer takes bearer and DPoP-bound access tokens, not certificate-bound ones: request the token without mutual TLS',
    {
      'WWW-Authenticate': 'Bearer error="invalid_token"',
    },
  );
/** RFC 9449 §5.8 at /token: the proof of possession is not valid. */
export const invalidDpopProofAtToken = (description: string) => new HttpError(400, 'invalid_dpop_proof', description);
/** RFC 9449 §7.1 at /credential: a DPoP-bound token needs the DPoP scheme and a valid proof of its key, and a bearer token no DPoP scheme. */
export const invalidDpopProofAtResource = (description: string) =>
  new HttpError(401, 'invalid_dpop_proof', description, { 'WWW-Authenticate': `DPoP error="invalid_dpop_proof", algs="${DPOP_ALGORITHMS.join(' ')}"` });
// The identity provider's events (openid4vci/approvals/approval-events.ts): Standard Webhooks signatures.
export const invalidEventSignature = (description: string) => new UnauthorizedError(description, 'invalid_signature');
