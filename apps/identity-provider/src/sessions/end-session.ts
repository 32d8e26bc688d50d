import type { Request, Response } from 'express';
import { clearSessionCookie, presentedSession, type SessionCookieDeps } from './session-cookie.js';
import { signOut } from './sessions.js';

/** Whom a session's end is told to: the back-channel logout (logout/backchannel-logout.ts) in the app. */
export interface SessionEndListener {
  sessionEnded(sessionId: string): void;
}

/** What ending a person's session needs: the cookie, and whom to tell. */
export interface EndSessionDeps extends SessionCookieDeps {
  logout: SessionEndListener;
}

/**
 * Ends the session the request presents (cookie or bearer), clears the cookie, and tells the
 * clients authorized in that session (back-channel logout): every way of signing out goes here.
 */
export async function endSession(deps: EndSessionDeps, req: Request, res: Response): Promise<void> {
  const ended = await signOut(deps.db, presentedSession(deps, req).token, deps.clock.now());
  clearSessionCookie(deps, res);
  if (ended) deps.logout.sessionEnded(ended);
}
