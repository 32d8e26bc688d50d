import { verifyWebhook, type WebhookEvent, type WebhookEventType } from '@svc/sdk';

/** The event types the demo app asks for: what an app holding users' consent must act on. */
export const DEMO_EVENTS: WebhookEventType[] = ['authorization.approved', 'authorization.revoked', 'authorization.data_window_ended', 'user.data_changed'];

/** The webhook events this demo app received and verified, newest first (the last 20). */
export class EventLog {
  private readonly events: (WebhookEvent & { received_at: string })[] = [];
  private readonly seen = new Set<string>();
  secret: string | undefined;

  /** Verifies a delivery (SDK's verifyWebhook) and keeps it once per webhook-id; false if it does not verify. */
  receive(body: Buffer, headers: Record<string, string | string[] | undefined>): boolean {
    if (!this.secret) return false;
    let event: WebhookEvent;
    try {
      event = verifyWebhook(this.secret, body, headers);
    } catch {
      return false;
    }
    // A retry of what was received already is acknowledged, not kept twice.
    if (this.seen.has(event.id)) return true;
    this.seen.add(event.id);
    this.events.unshift({ ...event, received_at: new Date().toISOString() });
    if (this.events.length > 20) this.seen.delete(this.events.pop()!.id);
    return true;
  }

  get recent() {
    return [...this.events];
  }
}

interface Developer {
  email: string;
  password: string;
}

/**
 * Registers this app's receiver with the identity provider as its organization's developer would
 * (sign in, then /v2/developer/webhooks): an endpoint it registered before at the same URL is
 * replaced, so restarts do not pile them up. Answers the new endpoint's signing secret.
 */
export async function registerReceiver(issuer: string, developer: Developer, url: string, fetchImpl: typeof fetch = fetch): Promise<string> {
  const call = async (method: string, path: string, token?: string, body?: unknown) => {
    const res = await fetchImpl(`${issuer}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as Record<string, unknown>);
  };
  const { email, password } = developer;
  const { session_token: session } = (await call('POST', '/auth/session', undefined, { email, password })) as { session_token: string };
  const { items } = (await call('GET', '/v2/developer/webhooks', session)) as { items: { id: string; url: string }[] };
  for (const old of items.filter((e) => e.url === url)) await call('DELETE', `/v2/developer/webhooks/${old.id}`, session);
  const created = (await call('POST', '/v2/developer/webhooks', session, { url, events: DEMO_EVENTS, description: 'The demo app' })) as { secret: string };
  return created.secret;
}
