// The credential issuer's failures of the signing threads.
import { ServiceUnavailableError } from '@svc/http';

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
