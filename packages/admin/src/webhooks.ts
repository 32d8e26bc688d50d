import { randomUUID } from 'node:crypto';
import type { Db } from '@svc/db';
import type { WebhookEventType } from '@svc/schemas';
import { generateWebhookSecret, WebhookSecrets } from '@svc/signing-keys';
import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { keyEncryptionOf } from './signing-keys.js';

/**
 * An organization's webhook endpoint at `url`, enabled and asking for `events`, and its signing
 * secret: the one it has if the organization already has an endpoint there, else a new endpoint
 * made as the console makes one (its secret sealed under the identity provider's KEK). The URL is
 * the caller's (no target check here: an operator's tool).
 */
export async function ensureWebhookEndpoint(ctx: AdminContext, input: { org: string; url: string; events: WebhookEventType[]; description: string }) {
  const db = ctx.db as Db;
  const secrets = new WebhookSecrets(keyEncryptionOf(ctx, 'identity-provider'));
  const url = new URL(input.url).href;
  const found = await db.webhookEndpoint.findFirst({ where: { organizationId: input.org, url }, orderBy: { createdAt: 'asc' } });
  if (found) {
    const events = [...new Set([...(found.events as WebhookEventType[]), ...input.events])];
    if (!found.enabled || events.length !== (found.events as string[]).length)
      await db.webhookEndpoint.update({ where: { id: found.id }, data: { enabled: true, disabledReason: null, failingSince: null, events } });
    return { id: found.id, secret: secrets.open(found.id, found.secret) };
  }
  const id = randomUUID();
  const secret = generateWebhookSecret();
  await db.webhookEndpoint.create({
    data: { id, organizationId: input.org, url, events: input.events, description: input.description, secret: secrets.seal(id, secret) as object },
  });
  return { id, secret };
}

/** Where the credential issuer takes the identity provider's wallet_approval.* events. */
export const APPROVAL_EVENTS_PATH = '/authorization-server/events';
const APPROVAL_EVENTS: WebhookEventType[] = ['wallet_approval.revoked', 'wallet_approval.data_changed'];
/** As the console rotates one: the old secret still signs beside the new one for a day, while the issuer is redeployed. */
const ROTATION_OVERLAP_MS = 86_400_000;
/** What the credential issuer accepts as AUTHORIZATION_SERVER_WEBHOOK_SECRET. */
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/;

export interface ApprovalEventsInput {
  org: string;
  /** The credential issuer's public URL. */
  issuerUrl: string;
  /** The secret the caller keeps for it: made with it, else checked against the endpoint's. */
  secret?: string | undefined;
  /** Make the endpoint's secret `secret` when it differs (a new one when none is given). */
  rotate?: boolean | undefined;
}

/**
 * The credential issuer's endpoint for the identity provider's wallet_approval.* events, in the
 * organization of its client (docs/credential-issuer.md): the organization's endpoint at the
 * issuer's /authorization-server/events, one it had at another address of the issuer moved there,
 * or a new one. Enabled and asking for both events. Answers its id and secret (the issuer's
 * AUTHORIZATION_SERVER_WEBHOOK_SECRET), whether it was made, and what changed.
 */
export async function linkApprovalEventsEndpoint(ctx: AdminContext, input: ApprovalEventsInput) {
  const db = ctx.db as Db;
  const secrets = new WebhookSecrets(keyEncryptionOf(ctx, 'identity-provider'));
  if (input.secret !== undefined && !WEBHOOK_SECRET.test(input.secret))
    throw new AdminError('the webhook secret must be whsec_ and the base64 of 24 to 64 random bytes: whsec_$(openssl rand -base64 32)');
  const url = new URL(`${input.issuerUrl.replace(/\/+$/, '')}${APPROVAL_EVENTS_PATH}`).href;
  const endpoints = await db.webhookEndpoint.findMany({
    where: { organizationId: input.org, url: { endsWith: APPROVAL_EVENTS_PATH } },
    orderBy: { createdAt: 'asc' },
  });
  const found = endpoints.find((e) => e.url === url) ?? endpoints[0];
  if (!found) {
    const id = randomUUID();
    const secret = input.secret ?? generateWebhookSecret();
    await db.webhookEndpoint.create({
      data: {
        id,
        organizationId: input.org,
        url,
        events: APPROVAL_EVENTS,
        description: 'The credential issuer: revokes the credentials issued on a wallet’s approval that ended',
        secret: secrets.seal(id, secret) as object,
      },
    });
    return { id, secret, made: true, updated: [] as string[] };
  }
  const updated: string[] = [];
  const events = [...new Set([...(found.events as WebhookEventType[]), ...APPROVAL_EVENTS])];
  const current = secrets.open(found.id, found.secret);
  let secret = current;
  const differs = input.secret !== undefined && input.secret !== current;
  if (differs && !input.rotate) throw new AdminError('the webhook secret given is not the approval-events endpoint’s (--rotate-webhook-secret makes it so)');
  if (input.rotate && (differs || input.secret === undefined)) {
    secret = input.secret ?? generateWebhookSecret();
    updated.push('webhook_secret');
  }
  if (found.url !== url) updated.push('approval_events_url');
  if (!found.enabled || events.length !== (found.events as string[]).length) updated.push('approval_events');
  if (updated.length)
    await db.webhookEndpoint.update({
      where: { id: found.id },
      data: {
        url,
        events,
        enabled: true,
        disabledReason: null,
        failingSince: null,
        ...(secret !== current
          ? {
              secret: secrets.seal(found.id, secret) as object,
              previousSecret: found.secret as object,
              previousSecretUntil: new Date(ctx.now().getTime() + ROTATION_OVERLAP_MS),
            }
          : {}),
      },
    });
  return { id: found.id, secret, made: false, updated };
}

/** The approval-events endpoint's secret, the credential issuer's AUTHORIZATION_SERVER_WEBHOOK_SECRET (linkApprovalEventsEndpoint). */
export async function ensureApprovalEventsEndpoint(ctx: AdminContext, input: { org: string; issuerUrl: string }): Promise<string> {
  return (await linkApprovalEventsEndpoint(ctx, input)).secret;
}
