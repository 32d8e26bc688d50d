import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENTS, webhookEvent, webhookEventTypesWrittenBy } from '../src/index.js';

// docs/webhooks.md's "Events" table: one row per type, its `data` cell naming the payload's members.
const guide = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
const rows = [...guide.matchAll(/^\| `([a-z_]+\.[a-z_]+)` \|[^|]*\| ([^|]*) \|/gm)].map(([, type, data]) => ({ type: type!, data: data! }));

describe('the webhook event registry', () => {
  it('has exactly the events docs/webhooks.md lists, each payload with the members its row names', () => {
    expect([...rows.map((r) => r.type)].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const { type, data } of rows) {
      const named = [...data.replace(/\[[^\]]*\]\([^)]*\)/g, '').matchAll(/`([a-z_]+)`/g)].map(([, name]) => name);
      expect(named.length).toBeGreaterThan(0);
      expect(Object.keys(WEBHOOK_EVENTS[type as keyof typeof WEBHOOK_EVENTS].data.shape)).toEqual(expect.arrayContaining(named));
    }
  });

  it('makes an event its payload schema accepts', () => {
    const event = webhookEvent('api_key.limit_reached', { api_key_id: 'k1', hourly_limit: 100, resets_at: '2026-11-25T11:00:00.000Z' });
    expect(WEBHOOK_EVENTS[event.type].data.parse(event.data)).toEqual(event.data);
  });

  it('says which events the services other than the identity provider write', () => {
    expect(webhookEventTypesWrittenBy('wallet-verify')).toEqual(['api_key.limit_reached']);
    expect(webhookEventTypesWrittenBy('credential-issuer')).toEqual([
      'credential.issued',
      'credential.revoked',
      'presentation.verified',
      'presentation.failed',
      'api_key.limit_reached',
    ]);
  });
});
