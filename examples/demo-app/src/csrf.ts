import type { RequestHandler, Response } from 'express';
import type { Session, Sessions } from './sessions.js';

/**
 * A guard for every state-changing post, form or script: the body carries the session's CSRF
 * token, or the post is refused (403). The handler reads the session it checked from `res.locals`.
 */
export function requireCsrf(sessions: Sessions): RequestHandler {
  return (req, res, next) => {
    const session = sessions.get(req, res);
    if ((req.body as { csrf?: unknown } | undefined)?.csrf !== session.csrf)
      return void res.status(403).type('text').send('This form has expired: go back, reload and try again.');
    res.locals.session = session;
    next();
  };
}

/** The session `requireCsrf` checked. */
export const checkedSession = (res: Response): Session => res.locals.session as Session;
