// The two mails a sign-up sends, in the language of the request: the link that proves the address,
// or, to an address that already has an account, word that someone tried (so the answer to the
// sign-up never has to say which).
import type { MailMessage } from '../../mail/mailer.js';
import { mailOrigin, mailSubject, type Sender } from '../../mail/mail-sender.js';
import type { Locale } from '../../views/locales/locale.js';
import { pageTexts } from '../../views/locales/registry.js';

/** Where the link leads: a page that asks for the password before anything is made (a GET alone makes nothing). */
export const confirmLink = (issuer: string, token: string) => `${issuer}/console/signup/confirm?token=${encodeURIComponent(token)}`;

export function confirmationMail(sender: Sender, lang: Locale, to: string, token: string, minutes: number, joining: boolean): MailMessage {
  const t = pageTexts(lang).signUpMails;
  return {
    to,
    subject: mailSubject(sender, t.confirmSubject),
    text: t.confirmText(mailOrigin(sender), minutes, confirmLink(sender.issuer, token), joining),
  };
}

export function alreadyRegisteredMail(sender: Sender, lang: Locale, to: string): MailMessage {
  const t = pageTexts(lang).signUpMails;
  return { to, subject: mailSubject(sender, t.alreadySubject), text: t.alreadyText(mailOrigin(sender), `${sender.issuer}/console`) };
}
