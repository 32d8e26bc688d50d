// Held to the Standard Webhooks specification: its published example, and its own JavaScript
// library (`standardwebhooks`, not written by this project) signing and verifying both ways.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { sign, verify } from '../src/index.js';

// The specification's example (its libraries' tests sign this and expect this signature).
const example = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const exampleHeaders = { id: example.id, timestamp: String(example.timestamp), signature: example.signature };
const at = (seconds: number) => new Date(seconds * 1000);

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ type: 'authorization.revoked', timestamp: '2026-11-25T10:00:00.000Z', data: { authorization_id: 'a1', reason: 'user' } });
// The library checks timestamps against the real clock.
const now = new Date(Math.floor(Date.now() / 1000) * 1000);
const seconds = Math.floor(now.getTime() / 1000);

describe('sign', () => {
  it('makes the signature of the specification’s example', () => {
    expect(sign(example.secret, example)).toBe(example.signature);
    expect(sign([example.secret], { ...example, body: Buffer.from(example.body) })).toBe(example.signature);
  });

  it('makes what the specification’s library makes, one signature per secret, each of which it verifies', () => {
    const [a, b] = [newSecret(), newSecret()];
    const header = sign([a, b], { id: 'msg_1', timestamp: seconds, body });
    expect(header).toBe(`${new Webhook(a).sign('msg_1', now, body)} ${new Webhook(b).sign('msg_1', now, body)}`);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(seconds), 'webhook-signature': header };
    for (const secret of [a, b]) expect(() => new Webhook(secret).verify(body, headers)).not.toThrow();
  });
});

describe('verify', () => {
  it('accepts the specification’s example, and refuses it changed in any part', () => {
    expect(verify(example.secret, exampleHeaders, example.body, { now: at(example.timestamp) })).toEqual({ ok: true });
    expect(verify([newSecret(), example.secret], exampleHeaders, Buffer.from(example.body), { now: at(example.timestamp + 300) })).toEqual({ ok: true });
    const refused = { ok: false, reason: 'no_matching_signature' };
    expect(verify(example.secret, exampleHeaders, '{"test": 2432232315}', { now: at(example.timestamp) })).toEqual(refused);
    expect(verify(example.secret, { ...exampleHeaders, id: 'msg_p5jXN8AQM9LWM0D4loKWxJel' }, example.body, { now: at(example.timestamp) })).toEqual(refused);
    expect(verify(newSecret(), exampleHeaders, example.body, { now: at(example.timestamp) })).toEqual(refused);
  });

  it('accepts what the specification’s library signs, alone or beside another signature', () => {
    const secret = newSecret();
    const signature = new Webhook(secret).sign('msg_1', now, body);
    const headers = { id: 'msg_1', timestamp: String(seconds), signature };
    expect(verify(secret, headers, body, { now })).toEqual({ ok: true });
    expect(verify(secret, { ...headers, signature: `${new Webhook(newSecret()).sign('msg_1', now, body)} ${signature}` }, body, { now })).toEqual({ ok: true });
    expect(verify(newSecret(), headers, body, { now })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });

  it('refuses as the specification’s library does: a timestamp more than five minutes off, or a header missing', () => {
    const secret = newSecret();
    const headers = { id: 'msg_1', timestamp: String(seconds), signature: sign(secret, { id: 'msg_1', timestamp: seconds, body }) };
    const library = { 'webhook-id': headers.id, 'webhook-timestamp': headers.timestamp, 'webhook-signature': headers.signature };
    for (const off of [-301, 301]) {
      expect(verify(secret, headers, body, { now: at(seconds + off) })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
      expect(verify(secret, headers, body, { now: at(seconds + off), toleranceSeconds: 301 })).toEqual({ ok: true });
    }
    for (const missing of ['id', 'timestamp', 'signature'] as const) {
      expect(verify(secret, { ...headers, [missing]: undefined }, body, { now })).toEqual({ ok: false, reason: 'missing_headers' });
      expect(() => new Webhook(secret).verify(body, { ...library, [`webhook-${missing}`]: undefined } as Record<string, string>)).toThrow();
    }
    expect(verify(secret, { ...headers, timestamp: 'soon' }, body, { now })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
  });

  it('skips signatures of another version, and looks at no more than four', () => {
    const secret = newSecret();
    const good = sign(secret, { id: 'msg_1', timestamp: seconds, body });
    const headers = (signature: string) => ({ id: 'msg_1', timestamp: String(seconds), signature });
    expect(verify(secret, headers(`v1a,${good.slice(3)}`), body, { now })).toEqual({ ok: false, reason: 'no_matching_signature' });
    const others = Array.from({ length: 4 }, () => sign(newSecret(), { id: 'msg_1', timestamp: seconds, body }));
    expect(verify(secret, headers([...others.slice(1), good].join(' ')), body, { now })).toEqual({ ok: true });
    expect(verify(secret, headers([...others, good].join(' ')), body, { now })).toEqual({ ok: false, reason: 'no_matching_signature' });
  });
});
