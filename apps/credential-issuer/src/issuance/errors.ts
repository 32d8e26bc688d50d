// The credential issuer's failures of issuing and deriving credentials, and their records.
import { HttpError, NotFoundError } from '@svc/http';

export const credentialNotFound = () => new NotFoundError('No such credential', 'credential_not_found');
export const duplicateCredential = (id: string) =>
  new HttpError(409, 'credential_exists', `This organization already issued a credential with id ${id}; choose another id or leave it out`);
export const notSignable = (reason: string) => new HttpError(400, 'invalid_credential', `The credential cannot be signed: ${reason}`);
export const notDerivable = (reason: string) => new HttpError(400, 'invalid_credential', `The credential cannot be derived: ${reason}`);
/** One credential of each configuration per approval at the identity provider. */
export const alreadyIssuedOnApproval = () =>
  new HttpError(400, 'invalid_credential_request', 'This credential was already issued on this approval: the person approves again for another');
