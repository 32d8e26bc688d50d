import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookEventPayloads, WebhookEventType } from './contract-types.js';

/** A webhook that did not verify: a missing header, a signature that matches no secret, or a timestamp too far off. */
export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

/** A verified delivery: `id` is its `webhook-id` (the same on every retry: drop a duplicate by it). */
export interface WebhookEvent<D = Record<string, unknown>> {
  id: string;
  type: string;
  /** When the change happened. */
  timestamp: string;
  data: D;
}

/**
 * A verified event of one of the types docs/webhooks.md lists, its `data` as that type's contract
 * says (from the same registry the services write events with): narrow it by `type`.
 */
export type KnownWebhookEvent = { [T in WebhookEventType]: { id: string; type: T; timestamp: string; data: WebhookEventPayloads[T] } }[WebhookEventType];

export interface VerifyWebhookOptions {
  /** How far the `webhook-timestamp` may be from now, either way (default 300 s): an older request is a replay. */
  toleranceSeconds?: number;
  /** For tests: what "now" is. */
  now?: Date;
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name] ?? Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Verifies a webhook from the identity provider (Standard Webhooks: `v1,` HMAC-SHA256 of
 * `id.timestamp.body` keyed with the `whsec_` secret's bytes) and returns its event. Give it the
 * body exactly as received (a string or Buffer, before any JSON parsing) and the request's headers.
 * During a secret rotation either secret verifies; pass several to accept any of them.
 */
export function verifyWebhook(
  secret: string | readonly string[],
  body: string | Uint8Array,
  headers: HeaderSource,
  options: VerifyWebhookOptions = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature');
  const seconds = Number(timestamp);
  const now = (options.now ?? new Date()).getTime() / 1000;
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(now - seconds) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('webhook-timestamp is too far from now: a replay, or a clock off by minutes');
  const payload = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const presented = signatures
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => Buffer.from(s.slice(3), 'base64'));
  const matches = [secret]
    .flat()
    .map((s) =>
      createHmac('sha256', Buffer.from(s.replace(/^whsec_/, ''), 'base64'))
        .update(`${id}.${timestamp}.${payload}`)
        .digest(),
    )
    .some((expected) => presented.some((p) => p.length === expected.length && timingSafeEqual(p, expected)));
  if (!matches) throw new WebhookVerificationError('No signature matches the secret');
  const event = JSON.parse(payload) as Omit<WebhookEvent, 'id'>;
  return { id, type: event.type, timestamp: event.timestamp, data: event.data };
}
