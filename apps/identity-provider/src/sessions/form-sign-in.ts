/**
 * The password form of a hosted page (the consent flow's sign-in, the account page's): signs the
 * person in and sets the session cookie, or says what the page should show instead (a wrong
 * password, or too many attempts with Retry-After already set, as the JSON answer has it).
 */
import { HttpError } from '@svc/http';
import type { Request, Response } from 'express';
import type { SessionCookieDeps } from './session-cookie.js';
import { setSessionCookie } from './session-cookie.js';
import { signIn } from './sessions.js';
import type { SessionDeps } from './deps.js';

export type FormSignInRefusal = { status: 401; wrongPassword: true } | { status: 429; wrongPassword: false };

export async function signInFromForm(
  deps: SessionCookieDeps & Pick<SessionDeps, 'store'>,
  req: Request,
  res: Response,
  form: { email: string; password: string },
): Promise<FormSignInRefusal | undefined> {
  try {
    const { token } = await signIn(
      { db: deps.db, limiter: deps.store.limiter, environment: deps.environment },
      { email: form.email, password: form.password, address: req.ip ?? 'unknown' },
      deps.clock.now(),
    );
    setSessionCookie(deps, res, token);
    return undefined;
  } catch (err) {
    if (!(err instanceof HttpError) || (err.status !== 401 && err.status !== 429)) throw err;
    if (err.status === 429) {
      res.set(err.headers);
      return { status: 429, wrongPassword: false };
    }
    return { status: 401, wrongPassword: true };
  }
}
