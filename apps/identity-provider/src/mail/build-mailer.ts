import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { Logger } from '@svc/http';
import type { MailSettings } from '../config.js';
import type { MailDeps } from './deps.js';
import { LocalOutbox } from './local-outbox.js';
import { smtpMailer } from './smtp-mailer.js';

/** The mailer the settings name, and its close; the outbox only where mail is kept, never beside SMTP. */
export function buildMailer(settings: MailSettings, db: Db, clock: Clock, log: Logger): MailDeps & { closeMailer(): void } {
  if (settings.transport === 'smtp') {
    const smtp = smtpMailer(settings.url, settings.from, log);
    return { mailer: smtp, outbox: undefined, closeMailer: () => smtp.close() };
  }
  const outbox = new LocalOutbox(db, clock);
  return { mailer: outbox, outbox, closeMailer: () => {} };
}
