import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import { ValidationError, isPublicAddress } from '@svc/http';
import { unlessGone, type WebhookDelivery, type WebhookEndpoint as Row } from '@svc/db';
import { type WebhookEventType, webhookEvent, type ZCreateWebhookRequest, type ZUpdateWebhookRequest, type ZWebhookDeliveryQuery } from '@svc/schemas';
import type { z } from 'zod';
import type { Developer } from '../developer/developer-auth.js';
import { conflict, deliveryNotFound, webhookNotFound } from '../errors.js';
import type { WebhookDeps } from './deps.js';
import { recordWebhookEvent, webhookIdOf } from '../webhook-outbox/events.js';
import { generateWebhookSecret } from '@svc/signing-keys';

/** How many endpoints an organization keeps. */
export const ENDPOINTS_PER_ORGANIZATION = 20;
/** How long a rotated secret is still signed with beside the new one: a day to deploy the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/**
 * Where a webhook may go: https, and (unless WEBHOOK_ALLOW_PRIVATE_TARGETS) not to this host or a
 * private network by its literal address or name. A name is checked again on every delivery, on
 * the address it resolves to then, so a name that later points inside gains nothing.
 */
function targetProblem(url: URL, allowPrivate: boolean): string | undefined {
  if (allowPrivate) return undefined;
  if (url.protocol !== 'https:') return 'must be an https URL';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return 'must not point to this host';
  if (isIP(host) && !isPublicAddress(host)) return 'must not be a private, loopback or link-local address';
  return undefined;
}

/** The URL as it will be called (normalized: `HTTPS://Hooks.Example.com` is `https://hooks.example.com/`), or 400. */
function target(deps: WebhookDeps, url: string): string {
  const parsed = new URL(url);
  const problem = targetProblem(parsed, deps.config.WEBHOOK_ALLOW_PRIVATE_TARGETS);
  if (problem) throw new ValidationError([{ field: 'body.url', message: problem }]);
  return parsed.href;
}

export function endpointView(e: Row, now: Date) {
  return {
    id: e.id,
    url: e.url,
    events: e.events as WebhookEventType[],
    description: e.description,
    enabled: e.enabled,
    disabled_reason: e.enabled ? null : ((e.disabledReason ?? 'by_developer') as 'by_developer' | 'failing'),
    previous_secret_expires_at: e.previousSecretUntil && e.previousSecretUntil > now ? e.previousSecretUntil.toISOString() : null,
    created_at: e.createdAt.toISOString(),
  };
}

export async function createWebhook(deps: WebhookDeps, developer: Developer, body: z.output<typeof ZCreateWebhookRequest>) {
  const url = target(deps, body.url);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const row = await deps.db.$transaction(async (tx) => {
    // One organization's endpoints are counted and added one request at a time: parallel requests cannot pass the cap together.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhooks:${developer.organizationId}`}))`;
    const count = await tx.webhookEndpoint.count({ where: { organizationId: developer.organizationId } });
    if (count >= ENDPOINTS_PER_ORGANIZATION)
      throw conflict('too_many_webhooks', `An organization keeps at most ${ENDPOINTS_PER_ORGANIZATION} webhook endpoints: delete one first`);
    return tx.webhookEndpoint.create({
      data: {
        id,
        organizationId: developer.organizationId,
        url,
        events: body.events,
        description: body.description ?? null,
        secret: deps.webhookSecrets.seal(id, secret),
      },
    });
  });
  return { ...endpointView(row, deps.clock.now()), secret };
}

export async function listWebhooks(deps: WebhookDeps, developer: Developer) {
  // Lag-tolerant: from the read replica unless this organization just wrote (see ReplicaReads).
  const rows = await deps.reads.read(developer.organizationId, (db) =>
    db.webhookEndpoint.findMany({ where: { organizationId: developer.organizationId }, orderBy: { createdAt: 'asc' } }),
  );
  const now = deps.clock.now();
  return { items: rows.map((r) => endpointView(r, now)) };
}

/** One of the developer's organization's endpoints; another organization's is not found. */
export async function webhookOf(deps: WebhookDeps, developer: Developer, id: string): Promise<Row> {
  const row = await deps.db.webhookEndpoint.findUnique({ where: { id } });
  if (!row || row.organizationId !== developer.organizationId) throw webhookNotFound();
  return row;
}

export async function updateWebhook(deps: WebhookDeps, developer: Developer, id: string, body: z.output<typeof ZUpdateWebhookRequest>) {
  const row = await webhookOf(deps, developer, id);
  const url = body.url === undefined ? undefined : target(deps, body.url);
  const updated = await unlessGone(
    deps.db.webhookEndpoint.update({
      where: { id: row.id },
      data: {
        ...(url !== undefined ? { url } : {}),
        ...(body.events !== undefined ? { events: body.events } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        // Enabled again: a fresh start, as if it had never failed; disabled by hand: says so.
        ...(body.enabled === true ? { enabled: true, disabledReason: null, failingSince: null } : {}),
        ...(body.enabled === false ? { enabled: false, disabledReason: 'by_developer' } : {}),
      },
    }),
    webhookNotFound,
  );
  return endpointView(updated, deps.clock.now());
}

/** Gone with its deliveries; events already written stay for the organization's other endpoints. */
export async function deleteWebhook(deps: WebhookDeps, developer: Developer, id: string): Promise<void> {
  const row = await webhookOf(deps, developer, id);
  await unlessGone(deps.db.webhookEndpoint.delete({ where: { id: row.id } }), webhookNotFound);
}

/** A new secret, shown once; the old one is signed with beside it for a day, so receivers can move over. */
export async function rotateWebhookSecret(deps: WebhookDeps, developer: Developer, id: string) {
  const row = await webhookOf(deps, developer, id);
  const now = deps.clock.now();
  const secret = generateWebhookSecret();
  const updated = await unlessGone(
    deps.db.webhookEndpoint.update({
      where: { id: row.id },
      data: {
        secret: deps.webhookSecrets.seal(row.id, secret),
        previousSecret: row.secret as object,
        previousSecretUntil: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      },
    }),
    webhookNotFound,
  );
  return { ...endpointView(updated, now), secret };
}

/** A `webhook.test` event to this endpoint alone, delivered as every other event is. */
export async function sendTestEvent(deps: WebhookDeps, developer: Developer, id: string) {
  const row = await webhookOf(deps, developer, id);
  const disabled = () => conflict('webhook_disabled', 'The endpoint is disabled: enable it first (PATCH with "enabled": true)');
  if (!row.enabled) throw disabled();
  await deps.limits.webhookTests(row.organizationId);
  const now = deps.clock.now();
  return deps.db.$transaction(async (tx) => {
    const eventId = await recordWebhookEvent(tx, {
      organizationId: row.organizationId,
      event: webhookEvent('webhook.test', { webhook_endpoint_id: row.id }),
      occurredAt: now,
      endpointId: row.id,
    });
    // None when the endpoint was disabled meanwhile (the trigger skips disabled endpoints).
    const delivery = await tx.webhookDelivery.findUnique({ where: { endpointId_eventId: { endpointId: row.id, eventId } }, select: { id: true } });
    if (!delivery) throw disabled();
    return { event_id: eventId, delivery_id: delivery.id };
  });
}

export function deliveryView(d: WebhookDelivery & { event: { type: string } }) {
  return {
    id: d.id,
    webhook_id: webhookIdOf(d.eventId),
    event_id: d.eventId,
    event_type: d.event.type as WebhookEventType,
    status: d.status as 'pending' | 'succeeded' | 'failed',
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    last_attempt_at: d.lastAttemptAt?.toISOString() ?? null,
    last_response_status: d.lastResponseStatus,
    last_response_ms: d.lastResponseMs,
    last_error: d.lastError,
    created_at: d.createdAt.toISOString(),
  };
}

export async function listDeliveries(deps: WebhookDeps, developer: Developer, id: string, query: z.output<typeof ZWebhookDeliveryQuery>) {
  const row = await webhookOf(deps, developer, id);
  const rows = await deps.db.webhookDelivery.findMany({
    where: { endpointId: row.id, ...(query.status ? { status: query.status } : {}) },
    include: { event: { select: { type: true } } },
    orderBy: { createdAt: 'desc' },
    take: query.limit,
  });
  return { items: rows.map(deliveryView) };
}

/** Tried again now: a failed delivery gets one more attempt, a pending one is moved forward. */
export async function retryDelivery(deps: WebhookDeps, developer: Developer, id: string, deliveryId: string) {
  const row = await webhookOf(deps, developer, id);
  // One statement: a delivery that succeeds meanwhile is never made pending again (and sent twice).
  const moved = await deps.db.webhookDelivery.updateMany({
    where: { id: deliveryId, endpointId: row.id, status: { not: 'succeeded' } },
    data: { status: 'pending', nextAttemptAt: deps.clock.now() },
  });
  const found = await deps.db.webhookDelivery.findFirst({ where: { id: deliveryId, endpointId: row.id }, include: { event: { select: { type: true } } } });
  if (!found) throw deliveryNotFound();
  if (moved.count === 0) throw conflict('delivery_succeeded', 'The delivery already succeeded; send a test event to try the endpoint');
  return deliveryView(found);
}
