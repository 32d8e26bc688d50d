import { z } from 'zod';

/**
 * Every event an endpoint can ask for (../shared/DESIGN.md, "Webhooks"). Payloads carry ids the
 * integrator already holds, never personal data or preset values.
 */
export const WEBHOOK_EVENT_TYPES = [
  'authorization.approved',
  'authorization.revoked',
  'authorization.data_window_ended',
  'user.data_changed',
  'wallet_approval.revoked',
  'wallet_approval.data_changed',
  'credential.issued',
  'credential.revoked',
  'api_key.limit_reached',
  'webhook.endpoint_disabled',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** Why an authorization ended (authorization.revoked's `data.reason`). */
export const REVOCATION_REASONS = ['user', 'client', 'reuse_detected', 'operator'] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

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
