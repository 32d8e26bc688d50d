import type { RequestLimits } from '../limits/request-limits.js';
import type { MailDeps } from '../mail/deps.js';
import type { EndSessionDeps } from '../sessions/end-session.js';
import type { MailLater } from './mail-later.js';

/** What resetting a forgotten password needs: the account and its sessions, the limits, and mail sent after the answer. */
export interface PasswordResetDeps extends EndSessionDeps, Pick<MailDeps, 'mailer'> {
  limits: RequestLimits;
  mailLater: MailLater;
}
