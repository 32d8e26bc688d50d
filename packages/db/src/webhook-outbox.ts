import { Prisma } from './generated/prisma/client.js';

/** An event for the webhook outbox (../shared/DESIGN.md, "Webhooks"): ids the integrator holds, never personal data. */
export interface OutboxEvent {
  organizationId: string;
  type: string;
  data: Record<string, unknown>;
  /** What it is about (a credential's id): an endpoint gets one subject's events in order. */
  subject?: string;
  /**
   * Written at most once for its subject (api_key.limit_reached: one per key and window, whichever
   * replica gets there first; a unique index of the outbox keeps the others out).
   */
  onceBySubject?: boolean;
}

type RawWriter = { $executeRaw: Prisma.TransactionClient['$executeRaw'] };

/**
 * Writes an event into the webhook outbox, for a service whose database role may only insert
 * there (no RETURNING, which would need SELECT): put it in the same transaction as the change it
 * tells of (an array transaction, or an interactive one's client), so it exists if and only if
 * the change committed. Its time is the database's.
 */
export function outboxInsert(db: RawWriter, event: OutboxEvent) {
  const values = Prisma.sql`VALUES (${event.organizationId}::uuid, ${event.type}, ${JSON.stringify(event.data)}::jsonb, ${event.subject ?? null})`;
  return event.onceBySubject
    ? db.$executeRaw`INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "subject") ${values}
        ON CONFLICT ("type", "subject") WHERE "type" = 'api_key.limit_reached' DO NOTHING`
    : db.$executeRaw`INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "subject") ${values}`;
}
