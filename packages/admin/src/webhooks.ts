import { randomUUID } from 'node:crypto';
import type { Db } from '@svc/db';
import type { WebhookEventType } from '@svc/schemas';
import { generateWebhookSecret, WebhookSecrets } from '@svc/signing-keys';
import type { AdminContext } from './context.js';
import { keyEncryptionOf } from './signing-keys.js';

/**
 * An organization's webhook endpoint at `url`, enabled and asking for `events`, and its signing
 * secret: the one it has if the organization already has an endpoint there, else a new endpoint
 * made as the console makes one (its secret sealed under the identity provider's KEK). `npm start`
 * wires the credential issuer to the identity provider's wallet_approval.* events this way, on
 * every start. The URL is the caller's (no target check here: an operator's tool).
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

/**
 * The credential issuer's endpoint for the identity provider's wallet_approval.* events, in the
 * organization of its client (docs/credential-issuer.md): answers its secret, the issuer's
 * AUTHORIZATION_SERVER_WEBHOOK_SECRET.
 */
export async function ensureApprovalEventsEndpoint(ctx: AdminContext, input: { org: string; issuerUrl: string }): Promise<string> {
  const endpoint = await ensureWebhookEndpoint(ctx, {
    org: input.org,
    url: `${input.issuerUrl.replace(/\/+$/, '')}/authorization-server/events`,
    events: ['wallet_approval.revoked', 'wallet_approval.data_changed'],
    description: 'The credential issuer: revokes the credentials issued on a wallet’s approval that ended',
  });
  return endpoint.secret;
}
