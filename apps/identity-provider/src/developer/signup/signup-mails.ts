// The two mails a sign-up sends: the link that proves the address, or, to an address that already
// has an account, word that someone tried (so the answer to the sign-up never has to say which).
import type { MailMessage } from '../../mail/mailer.js';
import { mailOrigin, mailSubject, type Sender } from '../../mail/mail-sender.js';

/** Where the link leads: a page that asks for the password before anything is made (a GET alone makes nothing). */
export const confirmLink = (issuer: string, token: string) => `${issuer}/console/signup/confirm?token=${encodeURIComponent(token)}`;

export function confirmationMail(sender: Sender, to: string, token: string, minutes: number, joining: boolean): MailMessage {
  return {
    to,
    subject: mailSubject(sender, 'Confirm your developer account'),
    text: [
      `Someone, we hope you, asked to open a developer account with this address at ${mailOrigin(sender)}${joining ? ', joining the organization that invited it' : ''}.`,
      '',
      `To finish, open this link within ${minutes} minutes and enter the password chosen at sign-up:`,
      '',
      confirmLink(sender.issuer, token),
      '',
      'If it was not you, ignore this mail: no account is made, and the link stops working by itself.',
    ].join('\n'),
  };
}

export function alreadyRegisteredMail(sender: Sender, to: string): MailMessage {
  return {
    to,
    subject: mailSubject(sender, 'Someone tried to sign up with your address'),
    text: [
      `Someone tried to open a developer account at ${mailOrigin(sender)} with this address, which already has one. Nothing was changed.`,
      '',
      `If it was you, sign in instead: ${sender.issuer}/console`,
      'Invited to an organization? Sign in, then accept the invitation with its token.',
      '',
      'If it was not you, there is nothing to do: nobody can sign up with your address without this mailbox.',
    ].join('\n'),
  };
}
