import { z } from 'zod';

/** Why an authorization ended (authorization.revoked's `data.reason`). */
export const REVOCATION_REASONS = ['user', 'client', 'reuse_detected', 'operator'] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

/** Who writes events into the outbox: the three services, and the admin CLI (as the database owner). */
export type WebhookEventWriter = 'identity-provider' | 'wallet-verify' | 'credential-issuer' | 'admin';

/** The ids every event about an authorization carries. */
const ZAuthorizationIds = z.object({ authorization_id: z.string(), client_id: z.string(), app_scoped_user_id: z.string() });
const ZWalletApproval = z.object({ authorization_id: z.string(), credential_configuration_ids: z.array(z.string()) });
const ZCredentialId = z.object({ credential_id: z.string() });

/**
 * Every event an endpoint can ask for (../shared/DESIGN.md, "Webhooks"; docs/webhooks.md, "Events"):
 * its type, the `data` of its body, and who writes it (the database roles of wallet verify and the
 * credential issuer may write only theirs). Payloads carry ids the integrator already holds, never
 * personal data or preset values. The order is the one endpoints and the console list them in.
 */
export const WEBHOOK_EVENTS = {
  'authorization.approved': { data: ZAuthorizationIds.extend({ scopes: z.array(z.string()) }), writers: ['identity-provider'] },
  /** `app_scoped_user_id` is missing when an operator revoked it: the admin CLI holds no identity-provider secret. */
  'authorization.revoked': {
    data: ZAuthorizationIds.extend({ app_scoped_user_id: z.string().optional(), reason: z.enum(REVOCATION_REASONS) }),
    writers: ['identity-provider', 'admin'],
  },
  'authorization.data_window_ended': { data: ZAuthorizationIds.extend({ data_window_ended_at: z.string() }), writers: ['identity-provider'] },
  /** Preset names, never values; no `app_scoped_user_id` (written by the admin CLI). */
  'user.data_changed': { data: z.object({ authorization_id: z.string(), client_id: z.string(), presets: z.array(z.string()) }), writers: ['admin'] },
  'wallet_approval.revoked': {
    data: ZWalletApproval.extend({ reason: z.enum([...REVOCATION_REASONS, 'application_revoked']) }),
    writers: ['identity-provider', 'admin'],
  },
  'wallet_approval.data_changed': { data: ZWalletApproval, writers: ['admin'] },
  'credential.issued': { data: ZCredentialId, writers: ['credential-issuer'] },
  'credential.revoked': { data: ZCredentialId, writers: ['credential-issuer'] },
  /** A wallet answered a presentation request and every check held (the result: GET /presentation-requests/{id}). */
  'presentation.verified': { data: z.object({ presentation_request_id: z.string() }), writers: ['credential-issuer'] },
  /** A wallet answered a presentation request and a check failed; the result names it. */
  'presentation.failed': { data: z.object({ presentation_request_id: z.string() }), writers: ['credential-issuer'] },
  'api_key.limit_reached': {
    data: z.object({ api_key_id: z.string(), hourly_limit: z.number().int(), resets_at: z.string() }),
    writers: ['wallet-verify', 'credential-issuer'],
  },
  /** A person proved an action (POST /v2/actions/{action}/proofs): its name and the nullifier, nothing of the person. */
  'action.proved': { data: z.object({ action: z.string(), nullifier: z.string() }), writers: ['identity-provider'] },
  'webhook.endpoint_disabled': { data: z.object({ webhook_endpoint_id: z.string(), failing_since: z.string() }), writers: ['identity-provider'] },
  'webhook.test': { data: z.object({ webhook_endpoint_id: z.string() }), writers: ['identity-provider'] },
} as const satisfies Record<string, { data: z.ZodType<Record<string, unknown>>; writers: readonly WebhookEventWriter[] }>;

export type WebhookEventType = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENTS) as [WebhookEventType, ...WebhookEventType[]];

/** Each event's `data`, by type. */
export type WebhookEventPayloads = { [T in WebhookEventType]: z.infer<(typeof WEBHOOK_EVENTS)[T]['data']> };

/** An event of one of `T`'s types with its `data`: what the outbox's writers take. */
export type TypedWebhookEvent<T extends WebhookEventType = WebhookEventType> = { [K in T]: { type: K; data: WebhookEventPayloads[K] } }[T];

/** The one way an event is made: its `data` is what its type says. */
export function webhookEvent<T extends WebhookEventType>(type: T, data: WebhookEventPayloads[T]): TypedWebhookEvent<T> {
  return { type, data } as TypedWebhookEvent<T>;
}

/** The types a writer writes, in the registry's order. */
export function webhookEventTypesWrittenBy(writer: WebhookEventWriter): WebhookEventType[] {
  return WEBHOOK_EVENT_TYPES.filter((type) => (WEBHOOK_EVENTS[type].writers as readonly WebhookEventWriter[]).includes(writer));
}

const ZWebhookUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return ctx.addIssue({ code: 'custom', message: 'must be an absolute URL' });
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') ctx.addIssue({ code: 'custom', message: 'must be an https URL' });
    if (url.username || url.password) ctx.addIssue({ code: 'custom', message: 'must not carry a user name or password (the signature authenticates)' });
    if (url.hash) ctx.addIssue({ code: 'custom', message: 'must not have a fragment' });
  });

const ZEventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { message: `must be one of: ${WEBHOOK_EVENT_TYPES.join(', ')}` }))
  .min(1, 'must list at least one event type')
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, 'must not list an event type twice');
const ZDescription = z.string().trim().max(200, 'must be at most 200 characters');

export const ZCreateWebhookRequest = z.strictObject({ url: ZWebhookUrl, events: ZEventTypes, description: ZDescription.optional() });
export const ZUpdateWebhookRequest = z
  .strictObject({ url: ZWebhookUrl, events: ZEventTypes, description: ZDescription.nullable(), enabled: z.boolean() })
  .partial()
  .refine((body) => Object.keys(body).length > 0, 'name at least one of url, events, description, enabled');
export const ZWebhookParams = z.object({ webhook_id: z.string().uuid('must be a webhook id') });
export const ZWebhookDeliveryParams = ZWebhookParams.extend({ delivery_id: z.string().uuid('must be a delivery id') });
export const ZWebhookDeliveryQuery = z.object({
  status: z.enum(['pending', 'succeeded', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ZWebhookEndpoint = z.object({
  id: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean(),
  /** Why it is disabled: `by_developer`, or `failing` (five days of failed deliveries). */
  disabled_reason: z.enum(['by_developer', 'failing']).nullable(),
  /** While a rotated secret is still signed with beside the new one. */
  previous_secret_expires_at: z.string().nullable(),
  created_at: z.string(),
});
/** Made or rotated: the signing secret, shown this once. */
export const ZWebhookEndpointWithSecret = ZWebhookEndpoint.extend({ secret: z.string() });
export const ZWebhookEndpointList = z.object({ items: z.array(ZWebhookEndpoint) });

export const ZWebhookDelivery = z.object({
  id: z.string(),
  /** The `webhook-id` header: the same on every attempt. */
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(['pending', 'succeeded', 'failed']),
  attempts: z.number().int(),
  next_attempt_at: z.string().nullable(),
  last_attempt_at: z.string().nullable(),
  last_response_status: z.number().int().nullable(),
  last_response_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
});
export const ZWebhookDeliveryList = z.object({ items: z.array(ZWebhookDelivery) });
export const ZWebhookTestResponse = z.object({ event_id: z.string(), delivery_id: z.string() });

/** What every delivery's body is: `{type, timestamp, data}` (Standard Webhooks). */
export const ZWebhookEventBody = z.object({ type: z.enum(WEBHOOK_EVENT_TYPES), timestamp: z.string(), data: z.record(z.string(), z.unknown()) });

export type WebhookEndpoint = z.infer<typeof ZWebhookEndpoint>;
export type WebhookDelivery = z.infer<typeof ZWebhookDelivery>;
