import { type TypedWebhookEvent, webhookEvent } from '@svc/schemas';
import { Prisma } from './generated/prisma/client.js';

/** An event for the webhook outbox (../shared/DESIGN.md, "Webhooks"): ids the integrator holds, never personal data. */
export interface OutboxEvent {
  organizationId: string;
  /** Made with `webhookEvent(type, data)` (@svc/schemas), whose registry says what `data` is. */
  event: TypedWebhookEvent;
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
  const values = Prisma.sql`VALUES (${event.organizationId}::uuid, ${event.event.type}, ${JSON.stringify(event.event.data)}::jsonb, ${event.subject ?? null})`;
  return event.onceBySubject
    ? db.$executeRaw`INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "subject") ${values}
        ON CONFLICT ("type", "subject") WHERE "type" = 'api_key.limit_reached' DO NOTHING`
    : db.$executeRaw`INSERT INTO "WebhookEvent" ("organizationId", "type", "data", "subject") ${values}`;
}

/**
 * wallet_approval.revoked, for an authorization that granted credentials (OpenID4VCI's
 * `authorization_details`) and has just been revoked: to the organization of the credential
 * issuer's client (`issuerClientId`, the identity provider's CREDENTIAL_ISSUER_CLIENT_ID), which
 * revokes what it issued on that approval. Nothing is written for an authorization without
 * credentials or when no such client exists. Inside the revocation's transaction, like the rest
 * of the outbox. The data: the authorization's id, the configurations it granted, and why.
 */
export function walletApprovalRevoked(db: ApprovalWriter, event: { authorizationId: string; issuerClientId: string; reason: ApprovalEndReason }) {
  return walletApprovalEvents(db, Prisma.sql`a.id = ${event.authorizationId}::uuid`, event);
}

/** The same, for each live approval of an application that has just been revoked (reason `application_revoked`). */
export function walletApprovalsOfApplicationRevoked(db: ApprovalWriter, event: { applicationId: string; issuerClientId: string }) {
  return walletApprovalEvents(db, Prisma.sql`a."applicationId" = ${event.applicationId}::uuid AND a.status IN ('approved', 'consumed')`, {
    ...event,
    reason: 'application_revoked',
  });
}

type ApprovalWriter = RawWriter & { $queryRaw: Prisma.TransactionClient['$queryRaw'] };
type ApprovalEndReason = TypedWebhookEvent<'wallet_approval.revoked'>['data']['reason'];

async function walletApprovalEvents(db: ApprovalWriter, which: Prisma.Sql, event: { issuerClientId: string; reason: ApprovalEndReason }): Promise<number> {
  const approvals = await db.$queryRaw<{ id: string; organizationId: string; configurationIds: string[] }[]>`
    SELECT a.id::text AS id, p."organizationId"::text AS "organizationId",
           (SELECT jsonb_agg(d->>'credential_configuration_id') FROM jsonb_array_elements(a."authorizationDetails") d) AS "configurationIds"
    FROM "Authorization" a, "Application" p
    WHERE ${which} AND p."clientId" = ${event.issuerClientId}
      AND jsonb_typeof(a."authorizationDetails") = 'array' AND jsonb_array_length(a."authorizationDetails") > 0`;
  for (const a of approvals)
    await outboxInsert(db, {
      organizationId: a.organizationId,
      event: webhookEvent('wallet_approval.revoked', { authorization_id: a.id, credential_configuration_ids: a.configurationIds, reason: event.reason }),
      subject: a.id,
    });
  return approvals.length;
}
