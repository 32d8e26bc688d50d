import type { Db } from '@svc/db';
import type { Clock } from '@svc/runtime';
import type { KeptMail } from '@svc/schemas';
import type { Mailer, MailMessage } from './mailer.js';

/** How long the outbox keeps a mail: long enough to follow any link in it. */
export const LOCAL_MAIL_DAYS = 7;
const SHOWN = 50;

const LINK = /https?:\/\/[^\s<>"]+/g;

/**
 * Mail a local deployment keeps instead of sending, shown on /dev/outbox. Only ever built where
 * SMTP_URL is unset and the deployment is a local one (config.ts, MailSettings).
 */
export class LocalOutbox implements Mailer {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async send(message: MailMessage): Promise<void> {
    await this.db.localMail.create({ data: { to: message.to, subject: message.subject, text: message.text, createdAt: this.clock.now() } });
  }

  /** The newest mails first, for one address or all. */
  async list(to?: string): Promise<KeptMail[]> {
    const rows = await this.db.localMail.findMany({
      where: to ? { to: to.trim().toLowerCase() } : {},
      orderBy: { createdAt: 'desc' },
      take: SHOWN,
    });
    return rows.map((m) => ({ id: m.id, to: m.to, subject: m.subject, text: m.text, links: m.text.match(LINK) ?? [], created_at: m.createdAt.toISOString() }));
  }

  /** Drops mails older than LOCAL_MAIL_DAYS. */
  async purge(): Promise<number> {
    const cutoff = new Date(this.clock.now().getTime() - LOCAL_MAIL_DAYS * 86_400_000);
    return (await this.db.localMail.deleteMany({ where: { createdAt: { lt: cutoff } } })).count;
  }
}
