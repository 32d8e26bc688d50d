// The credential issuer's failures, in one list: every error a route or service throws on purpose.
import { ForbiddenError, HttpError, NotFoundError, RateLimitedError, ServiceUnavailableError, UnauthorizedError, ValidationError } from '@svc/http';
import { DPOP_ALGORITHMS } from '@svc/runtime';

export const tokenMissing = () => new UnauthorizedError('The X-API-Token header is required', 'unauthorized');
export const tokenUnknown = () => new UnauthorizedError('The API token is not valid', 'invalid_token');
export const tokenFromSandbox = () =>
  new UnauthorizedError('The API token is a sandbox key (sbx_): the credential issuer takes production keys only', 'invalid_token');
export const tokenDisabled = () => new ForbiddenError('The API token is disabled', 'forbidden');
export const permissionMissing = (permission: string) => new ForbiddenError(`The API token lacks the ${permission} permission`, 'insufficient_permission');
export const overLimit = (retryAfterSeconds: number, description: string, headers: Record<string, string>) =>
  new RateLimitedError(retryAfterSeconds, description, headers);

export const credentialNotFound = () => new NotFoundError('No such credential', 'credential_not_found');
export const statusListNotFound = () => new NotFoundError('No such status list', 'status_list_not_found');
export const duplicateCredential = (id: string) =>
  new HttpError(409, 'credential_exists', `This organization already issued a credential with id ${id}; choose another id or leave it out`);
export const notSignable = (reason: string) => new HttpError(400, 'invalid_credential', `The credential cannot be signed: ${reason}`);
export const invalidField = (field: string, message: string) => new ValidationError([{ field, message }]);
/** The signing queue is full, in all or (`tenant`) for the caller's organization, which holds its share already. */
export const signingQueueFull = (scope: 'all' | 'tenant' = 'all') =>
  new ServiceUnavailableError(
    scope === 'tenant'
      ? 'Your organization has as many credentials being signed or verified as it may; try again shortly'
      : 'Too many credentials are being signed; try again shortly',
    1,
    'signing_queue_full',
  );
/** A signing job ran past its deadline: it was stopped and its thread replaced. */
export const signingJobTimedOut = (ms: number) =>
  new ServiceUnavailableError(
    `Signing or verifying took longer than ${ms / 1000} s and was stopped; try again shortly, or with a smaller credential`,
    1,
    'signing_timeout',
  );
export const signingPoolClosing = () => new ServiceUnavailableError('The signing pool is shutting down', 1);

interface Verification {
  checks: string[];
  warnings: { type: string; title: string; detail: string }[];
  errors: { type: string; title: string; detail: string }[];
}

/** VC API verify: a credential that fails is a 400 carrying the whole verdict, every failing check. */
export class VerificationFailedError extends HttpError {
  override name = 'VerificationFailedError';
  constructor(readonly verdict: Verification) {
    super(400, 'verification_failed', `The credential did not verify: ${verdict.errors.map((e) => e.detail).join('; ')}`);
  }

  override toBody() {
    return { ...super.toBody(), verified: false as const, ...this.verdict };
  }
}
export const notDerivable = (reason: string) => new HttpError(400, 'invalid_credential', `The credential cannot be derived: ${reason}`);

// OpenID4VCI (openid4vci/): the error codes the specification and OAuth 2.0 name, so wallet libraries understand them.
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
/** One credential of each configuration per approval at the identity provider. */
export const alreadyIssuedOnApproval = () =>
  new HttpError(400, 'invalid_credential_request', 'This credential was already issued on this approval: the person approves again for another');

// The identity provider's events (openid4vci/approvals/approval-events.ts): Standard Webhooks signatures.
export const invalidEventSignature = (description: string) => new UnauthorizedError(description, 'invalid_signature');
