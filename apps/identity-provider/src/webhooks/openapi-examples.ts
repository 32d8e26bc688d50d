import type { OperationExample } from '@svc/http';
import type { WebhookEventType } from '@svc/schemas';

// The sandbox guide's webhook examples (docs/sandbox.md, in its page order): an endpoint is made
// (new_webhook, defined in the guide's first block, keeps its id in $WEBHOOK_ID), tried with a test
// event, its log read and a delivery retried, its secret rotated, and it is deleted last. The URL is
// a name that answers nothing here, so the test event's delivery waits for its next attempt.
const token = { Authorization: 'Bearer $TOKEN' };
const URL = 'https://hooks.example.com/svc';
const ID = '6a1f0c2e-4b3d-4e8f-9a7b-2c1d0e9f8a7b';
const EVENT_ID = '2e4c6a8b-0d1f-4a3c-8e5b-7d9f1a3c5e7b';
const DELIVERY_ID = '8f7e6d5c-4b3a-4291-8f0e-1d2c3b4a5968';
const NOW = '2026-11-25T10:00:00.000Z';
const events: WebhookEventType[] = ['authorization.approved', 'authorization.revoked', 'webhook.test'];

const endpoint = {
  id: ID,
  url: URL,
  events,
  description: 'Staging receiver',
  enabled: true,
  disabled_reason: null,
  previous_secret_expires_at: null,
  created_at: NOW,
};
const delivery = {
  id: DELIVERY_ID,
  webhook_id: `msg_${EVENT_ID.replaceAll('-', '')}`,
  event_id: EVENT_ID,
  event_type: 'webhook.test',
  status: 'pending',
  attempts: 1,
  next_attempt_at: '2026-11-25T10:00:05.112Z',
  last_attempt_at: NOW,
  last_response_status: null,
  last_response_ms: 41,
  last_error: 'connection failed (ENOTFOUND)',
  created_at: NOW,
};
const id = { webhook_id: '$WEBHOOK_ID' };

export const WEBHOOK_EXAMPLES: Record<string, OperationExample[]> = {
  'POST /v2/developer/webhooks': [
    {
      summary: 'an endpoint for approvals, revocations and test events (its secret is shown this once)',
      headers: token,
      body: { url: URL, events, description: 'Staging receiver' },
      status: 201,
      response: { ...endpoint, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw/CQ4SAgjPbs=' },
    },
  ],
  'GET /v2/developer/webhooks': [{ summary: 'your endpoints (never their secrets)', headers: token, status: 200, response: { items: [endpoint] } }],
  'GET /v2/developer/webhooks/{webhook_id}': [{ summary: 'one endpoint', setup: 'new_webhook', params: id, headers: token, status: 200, response: endpoint }],
  'PATCH /v2/developer/webhooks/{webhook_id}': [
    {
      summary: 'ask for data window ends too (what is sent changes, the rest stays)',
      params: id,
      headers: token,
      body: { events: [...events, 'authorization.data_window_ended'] },
      status: 200,
      response: { ...endpoint, events: [...events, 'authorization.data_window_ended'] },
    },
  ],
  'POST /v2/developer/webhooks/{webhook_id}/test': [
    {
      summary: 'a webhook.test event, delivered as every event is',
      params: id,
      headers: token,
      status: 202,
      response: { event_id: EVENT_ID, delivery_id: DELIVERY_ID },
    },
  ],
  'GET /v2/developer/webhooks/{webhook_id}/deliveries': [
    { summary: 'the delivery log, newest first', params: id, headers: token, status: 200, response: { items: [delivery] } },
  ],
  'POST /v2/developer/webhooks/{webhook_id}/deliveries/{delivery_id}/retry': [
    {
      summary: 'try a delivery again now',
      setup: 'export DELIVERY_ID=$(sbx POST "/v2/developer/webhooks/$WEBHOOK_ID/test" | jq -r .delivery_id)',
      params: { ...id, delivery_id: '$DELIVERY_ID' },
      headers: token,
      status: 200,
      response: { ...delivery, attempts: 1, next_attempt_at: NOW },
    },
  ],
  'POST /v2/developer/webhooks/{webhook_id}/rotate-secret': [
    {
      summary: 'a new secret, shown once; both are signed with for 24 hours',
      params: id,
      headers: token,
      status: 200,
      response: { ...endpoint, previous_secret_expires_at: '2026-11-26T10:00:00.000Z', secret: 'whsec_3VqQ0c9kT1zX8rB2nL5wY7mP4hJ6dF0gS2aU8eI1oK4=' },
    },
  ],
  'DELETE /v2/developer/webhooks/{webhook_id}': [{ summary: 'delete the endpoint and its log', params: id, headers: token, status: 204 }],
};
