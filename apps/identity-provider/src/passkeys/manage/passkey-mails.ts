/**
 * The owner hears of every passkey added to or removed from their account, in the language of the
 * request that did it: a passkey planted by someone else is the one change a password reset does
 * not undo by itself.
 */
import type { Request } from 'express';
import { mailOrigin, mailSubject, senderOf } from '../../mail/mail-sender.js';
import type { SessionUser } from '../../sessions/sessions.js';
import { pickLocale } from '../../views/locales/locale.js';
import { pageTexts } from '../../views/locales/registry.js';
import type { PasskeyDeps } from '../deps.js';

export function mailPasskeyChange(deps: PasskeyDeps, req: Request, user: SessionUser, change: 'added' | 'removed', name: string): void {
  const t = pageTexts(pickLocale(undefined, req.headers['accept-language'])).passkeyMails;
  const sender = senderOf(deps);
  const accountPage = `${deps.config.issuer}/account`;
  const [subject, text] =
    change === 'added'
      ? [t.addedSubject, t.addedText(mailOrigin(sender), name, accountPage)]
      : [t.removedSubject, t.removedText(mailOrigin(sender), name, accountPage)];
  // The change is made: a mail server's failure is logged, never turned into a failed answer.
  void deps.mailer.send({ to: user.email, subject: mailSubject(sender, subject), text }).catch((err: Error) => {
    deps.logger.warn({ err: err.message }, 'passkey change mail failed');
  });
}
