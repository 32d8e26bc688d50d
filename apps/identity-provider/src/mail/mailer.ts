/** One message to one person: plain text, whose links a mail client makes clickable. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail: through SMTP (smtp-mailer.ts), or into the local outbox of a local deployment (local-outbox.ts). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}
