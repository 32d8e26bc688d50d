// The two mails of a reset: the link, and word that the password changed. In the language of the
// request that caused each (the page's, or the API caller's Accept-Language).
import type { Locale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import type { MailMessage } from '../mail/mailer.js';

export interface Sender {
  issuer: string;
  /** IDP_DISPLAY_NAME, when set. */
  provider?: string | undefined;
  sandbox: boolean;
}

const subject = (sender: Sender, text: string) => (sender.sandbox ? `[Sandbox] ${text}` : text);
// The host, not a link: the one link of a mail is the one to follow.
const where = (sender: Sender) => {
  const host = new URL(sender.issuer).host;
  const notes = [...(sender.provider ? [host] : []), ...(sender.sandbox ? ['sandbox'] : [])];
  return `${sender.provider ?? host}${notes.length ? ` (${notes.join(', ')})` : ''}`;
};

/** Where a reset link leads: a page that asks for the new password (a GET alone changes nothing; mail scanners open links). */
export const resetLink = (issuer: string, token: string, lang: Locale) => `${issuer}/password-reset?token=${encodeURIComponent(token)}&lang=${lang}`;

export function resetLinkMail(sender: Sender, to: string, token: string, minutes: number, lang: Locale): MailMessage {
  const t = pageTexts(lang).passwordReset;
  return { to, subject: subject(sender, t.mailSubject), text: t.mailText(where(sender), minutes, resetLink(sender.issuer, token, lang)) };
}

export function passwordChangedMail(sender: Sender, to: string, signedOut: boolean, lang: Locale): MailMessage {
  const t = pageTexts(lang).passwordReset;
  return { to, subject: subject(sender, t.changedSubject), text: t.changedText(where(sender), signedOut, `${sender.issuer}/password-reset/new?lang=${lang}`) };
}
