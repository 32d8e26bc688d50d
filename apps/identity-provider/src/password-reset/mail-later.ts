import type { Logger } from '@svc/http';

/**
 * Work a request starts and does not wait for: a reset request is answered before its address is
 * looked up or mailed, so the answer takes as long for an address with an account as for one
 * without (nothing to time), and an SMTP server's pace never shows. A failure is logged (without
 * the message), never lost silently. Shutdown and tests wait for what is under way (`settled`).
 */
export class MailLater {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly logger: Pick<Logger, 'warn'>) {}

  run(what: string, work: () => Promise<void>): void {
    const running = work().catch((err: Error) => this.logger.warn({ err: err.message }, `${what} failed`));
    this.inFlight.add(running);
    void running.finally(() => this.inFlight.delete(running));
  }

  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }
}
