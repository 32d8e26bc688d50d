import type { CoreDeps } from '@svc/runtime';
import type { RequestLimits } from '../limits/request-limits.js';
import type { MailDeps } from '../mail/deps.js';
import type { SessionCookieDeps } from '../sessions/session-cookie.js';
import type { SessionEndListener } from '../sessions/end-session.js';

/**
 * What passkeys need: the session cookie (and through it the config and database), the store's
 * cache for challenges and its limiter for the throttle, the mailer that tells the owner of a change, and the pages' script (assets/passkeys.js,
 * read once at start, as the app's package.json is); whom to tell of the sessions a deleted passkey ends.
 */
export interface PasskeyDeps extends SessionCookieDeps, Pick<CoreDeps, 'store' | 'logger'>, Pick<MailDeps, 'mailer'> {
  passkeyScript: string;
  limits: RequestLimits;
  logout: SessionEndListener;
}
