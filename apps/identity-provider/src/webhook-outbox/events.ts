import type { Prisma } from '@svc/db';
import { type RevocationReason, type TypedWebhookEvent, webhookEvent } from '@svc/schemas';
import { appScopedUserId } from '../keys/keyed.js';

export interface WebhookEventInput {
  organizationId: string;
  /** Made with `webhookEvent(type, data)`: ids the integrator already holds; never personal data or preset values. */
  event: TypedWebhookEvent;
  occurredAt: Date;
  /** A test event: to this endpoint only. */
  endpointId?: string;
  /** What it is about (an authorization's id): an endpoint gets a subject's events in order, retries or not. */
  subject?: string;
}

type Outbox = Pick<Prisma.TransactionClient, 'webhookEvent'>;

/** The `webhook-id` of an event: the same on every attempt and for every endpoint. */
export const webhookIdOf = (eventId: string) => `msg_${eventId.replaceAll('-', '')}`;

/** How long events and their delivery log are kept (housekeeping deletes older ones). */
export const WEBHOOK_LOG_DAYS = 30;

/**
 * Writes an event into the outbox, inside the caller's transaction: it is delivered if and only if
 * the change it tells of commits (the table's trigger makes one delivery per endpoint that asked).
 */
export async function recordWebhookEvent(tx: Outbox, event: WebhookEventInput): Promise<string> {
  const row = await tx.webhookEvent.create({
    data: {
      organizationId: event.organizationId,
      type: event.event.type,
      data: event.event.data as Prisma.InputJsonValue,
      occurredAt: event.occurredAt,
      ...(event.endpointId ? { endpointId: event.endpointId } : {}),
      ...(event.subject ? { subject: event.subject } : {}),
    },
    select: { id: true },
  });
  return row.id;
}

interface AuthorizationFacts {
  id: string;
  userId: string;
  application: { clientId: string; organizationId: string };
}

/** The ids an integrator knows an authorization by: its own, its client's, and the user's app-scoped id. */
function authorizationEventData(secret: string, a: AuthorizationFacts) {
  return {
    authorization_id: a.id,
    client_id: a.application.clientId,
    app_scoped_user_id: appScopedUserId(secret, a.application.organizationId, a.userId),
  };
}

/** An event about one authorization; the authorization is its subject (kept in order). */
const about = (a: AuthorizationFacts, event: TypedWebhookEvent, at: Date): WebhookEventInput => ({
  organizationId: a.application.organizationId,
  event,
  occurredAt: at,
  subject: a.id,
});

export const authorizationApproved = (secret: string, a: AuthorizationFacts, scopes: string[], at: Date) =>
  about(a, webhookEvent('authorization.approved', { ...authorizationEventData(secret, a), scopes }), at);

export const authorizationRevoked = (secret: string, a: AuthorizationFacts, reason: RevocationReason, at: Date) =>
  about(a, webhookEvent('authorization.revoked', { ...authorizationEventData(secret, a), reason }), at);

/** authorization.data_window_ended: written at the time the window ended, which it names. */
export const authorizationDataWindowEnded = (secret: string, a: AuthorizationFacts, endedAt: Date) =>
  about(a, webhookEvent('authorization.data_window_ended', { ...authorizationEventData(secret, a), data_window_ended_at: endedAt.toISOString() }), endedAt);
