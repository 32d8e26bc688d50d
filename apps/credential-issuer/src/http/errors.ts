// The credential issuer's failures of API tokens and requests.
import { ForbiddenError, RateLimitedError, UnauthorizedError, ValidationError } from '@svc/http';

export const tokenMissing = () => new UnauthorizedError('The X-API-Token header is required', 'unauthorized');
export const tokenUnknown = () => new UnauthorizedError('The API token is not valid', 'invalid_token');
export const tokenFromSandbox = () =>
  new UnauthorizedError('The API token is a sandbox key (sbx_): the credential issuer takes production keys only', 'invalid_token');
export const tokenDisabled = () => new ForbiddenError('The API token is disabled', 'forbidden');
export const permissionMissing = (permission: string) => new ForbiddenError(`The API token lacks the ${permission} permission`, 'insufficient_permission');
export const overLimit = (retryAfterSeconds: number, description: string, headers: Record<string, string>) =>
  new RateLimitedError(retryAfterSeconds, description, headers);
export const invalidField = (field: string, message: string) => new ValidationError([{ field, message }]);
