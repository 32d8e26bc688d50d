// The two mails of a reset: the link, and word that the password changed. In the language of the
// request that caused each (the page's, or the API caller's Accept-Language).
import type { Locale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import type { MailMessage } from '../mail/mailer.js';
import { mailOrigin, mailSubject, type Sender } from '../mail/mail-sender.js';

/** Where a reset link leads: a page that asks for the new password (a GET alone changes nothing; mail scanners open links). */
export const resetLink = (issuer: string, token: string, lang: Locale) => `${issuer}/password-reset?token=${encodeURIComponent(token)}&lang=${lang}`;

export function resetLinkMail(sender: Sender, to: string, token: string, minutes: number, lang: Locale): MailMessage {
  const t = pageTexts(lang).passwordReset;
  return { to, subject: mailSubject(sender, t.mailSubject), text: t.mailText(mailOrigin(sender), minutes, resetLink(sender.issuer, token, lang)) };
}

export function passwordChangedMail(sender: Sender, to: string, signedOut: boolean, lang: Locale): MailMessage {
  const t = pageTexts(lang).passwordReset;
  return {
    to,
    subject: mailSubject(sender, t.changedSubject),
    text: t.changedText(mailOrigin(sender), signedOut, `${sender.issuer}/password-reset/new?lang=${lang}`, `${sender.issuer}/account`),
  };
}
