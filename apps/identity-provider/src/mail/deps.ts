import type { LocalOutbox } from './local-outbox.js';
import type { Mailer } from './mailer.js';

/** Mail: the one way out, and, on a local deployment without SMTP_URL, the outbox it writes to. */
export interface MailDeps {
  mailer: Mailer;
  /** Set only where mail goes to the local outbox: then /dev/outbox exists. */
  outbox: LocalOutbox | undefined;
}
