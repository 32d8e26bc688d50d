// verifyWebhook against deliveries signed by standardwebhooks, the specification's own library
// (not written by this project), as the identity provider's deliverer signs them.
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/index.js';

const secret = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;
const other = `whsec_${Buffer.alloc(32, 2).toString('base64')}`;
const body = JSON.stringify({ type: 'authorization.revoked', timestamp: '2026-11-25T10:00:00.000Z', data: { authorization_id: 'a1', reason: 'user' } });
const at = new Date('2026-11-25T10:00:03.000Z');
const signed = (by: string, when = at) => ({
  'webhook-id': 'msg_1',
  'webhook-timestamp': String(Math.floor(when.getTime() / 1000)),
  'webhook-signature': new Webhook(by).sign('msg_1', when, body),
});

describe('verifyWebhook', () => {
  it('returns the event of a delivery signed as Standard Webhooks says, from a string, a Buffer or fetch Headers', () => {
    const headers = signed(secret);
    const event = { id: 'msg_1', type: 'authorization.revoked', timestamp: '2026-11-25T10:00:00.000Z', data: { authorization_id: 'a1', reason: 'user' } };
    expect(verifyWebhook(secret, body, headers, { now: at })).toEqual(event);
    expect(verifyWebhook(secret, Buffer.from(body), new Headers(headers), { now: at })).toEqual(event);
  });

  it('accepts either signature during a rotation, and either secret when given both', () => {
    const rotated = { ...signed(secret), 'webhook-signature': `${signed(other)['webhook-signature']} ${signed(secret)['webhook-signature']}` };
    expect(verifyWebhook(secret, body, rotated, { now: at }).id).toBe('msg_1');
    expect(verifyWebhook([other, secret], body, signed(secret), { now: at }).id).toBe('msg_1');
  });

  it('refuses a changed body, another secret, an old timestamp and missing headers', () => {
    const headers = signed(secret);
    const refused = (run: () => unknown) => expect(run).toThrow(WebhookVerificationError);
    refused(() => verifyWebhook(secret, body.replace('user', 'client'), headers, { now: at }));
    refused(() => verifyWebhook(other, body, headers, { now: at }));
    refused(() => verifyWebhook(secret, body, headers, { now: new Date(at.getTime() + 301_000) }));
    refused(() => verifyWebhook(secret, body, { ...headers, 'webhook-id': 'msg_2' }, { now: at }));
    refused(() => verifyWebhook(secret, body, { 'webhook-id': 'msg_1', 'webhook-timestamp': headers['webhook-timestamp'] }, { now: at }));
  });

  it('verifies the Standard Webhooks specification’s example, and refuses it with another body', () => {
    const body = '{"test": 2432232314}';
    const headers = {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    };
    const options = { now: new Date(1614265330 * 1000) };
    expect(verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', body, headers, options).id).toBe('msg_p5jXN8AQM9LWM0D4loKWxJek');
    expect(() => verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '{"test": 2432232315}', headers, options)).toThrow(WebhookVerificationError);
  });
});
