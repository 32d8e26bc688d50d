import { type Db, outboxInsert } from '@svc/db';
import type { Logger } from '@svc/http';
import type { RateLimitDecision } from '@svc/kv';
import { webhookEvent } from '@svc/schemas';

/**
 * api_key.limit_reached, once per key and hourly window: written into the webhook outbox the
 * first time a key is refused for its hourly limit (never for its per-second burst). Each replica
 * remembers what it announced, and the outbox's unique index on the window's subject keeps a
 * second replica's announcement out, so a key hammering its limit writes one event an hour.
 * Written off the answer's path: a refusal is never slowed, nor failed, by the outbox.
 */
export class LimitEvents {
  private readonly announced = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
  ) {}

  /** Call with every decision of a key's limiter. */
  observe(key: { id: string; organizationId: string; hourlyLimit: number }, decision: RateLimitDecision): void {
    if (decision.allowed || decision.refusedBy === 'burst') return;
    const until = decision.resetAt * 1000;
    if ((this.announced.get(key.id) ?? 0) >= until) return;
    if (this.announced.size >= 10_000) this.announced.clear();
    this.announced.set(key.id, until);
    const resetAt = new Date(until).toISOString();
    void this.write(key, resetAt).catch((err: unknown) => {
      this.announced.delete(key.id);
      this.logger.warn({ err: (err as Error).message }, 'api_key.limit_reached not written');
    });
  }

  private async write(key: { id: string; organizationId: string; hourlyLimit: number }, resetAt: string): Promise<void> {
    await outboxInsert(this.db, {
      organizationId: key.organizationId,
      event: webhookEvent('api_key.limit_reached', { api_key_id: key.id, hourly_limit: key.hourlyLimit, resets_at: resetAt }),
      subject: `${key.id}@${resetAt}`,
      onceBySubject: true,
    });
  }
}
