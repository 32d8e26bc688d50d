/**
 * Adding or removing a passkey changes how the account can be entered: it needs a sign-in made in
 * the last PASSKEY_CHANGE_WINDOW_SECONDS, so that a stolen session (a cookie, a bearer session
 * token: they live 12 hours) or an old one left open cannot plant a passkey that would outlive a
 * password reset and meet a step-up.
 */
import { HttpError } from '@svc/http';
import type { RequestHandler } from 'express';
import type { PasskeyDeps } from '../deps.js';

export const PASSKEY_CHANGE_WINDOW_SECONDS = 600;

/** After requireSession. */
export function requireRecentSignIn(deps: Pick<PasskeyDeps, 'clock'>): RequestHandler {
  return (_req, res, next) => {
    const signedInFor = deps.clock.now().getTime() - res.locals.session!.authTime.getTime();
    if (signedInFor > PASSKEY_CHANGE_WINDOW_SECONDS * 1000)
      throw new HttpError(403, 'login_required', 'Adding or removing a passkey needs a sign-in in the last 10 minutes: sign in again, then try once more');
    next();
  };
}
