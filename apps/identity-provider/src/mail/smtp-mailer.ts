import { type Logger, ServiceUnavailableError } from '@svc/http';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mailer.js';

/**
 * Sends through the SMTP server `url` names (its login in the URL; `smtps:` for implicit TLS), as
 * `from`. A server that is down or refuses is the operator's to hear of (logged) and the caller's
 * to retry (503), never a silent loss.
 */
export function smtpMailer(url: string, from: string, log: Pick<Logger, 'error'>): Mailer & { close(): void } {
  // A server that stalls must not hold a request for minutes: nodemailer's own timeouts are ten.
  const transport = nodemailer.createTransport({ url, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 });
  return {
    async send(message: MailMessage) {
      try {
        await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
      } catch (err) {
        log.error({ err }, 'mail not sent: the SMTP server (SMTP_URL) failed');
        throw new ServiceUnavailableError('Mail cannot be sent just now; try again in a minute', 60);
      }
    },
    close: () => transport.close(),
  };
}
