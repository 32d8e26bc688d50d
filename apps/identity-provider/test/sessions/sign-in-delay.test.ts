import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, useIdp } from '../helpers.js';

const suite = useIdp();

describe('failed sign-ins slow down, never lock out', () => {
  it('lets the owner in from another address while an attacker’s address waits, and lets it in after the delay', async () => {
    // Time stands still unless the test moves it: how slow the machine is changes nothing.
    let now = Date.now();
    // The throttle lives in the store, so the store follows this clock too.
    const throttled = buildIdp({ TRUST_PROXY: 'true' }, { now: () => new Date(now) });
    try {
      const a = await arrange(suite.db);
      const from = (address: string, password: string) =>
        request(throttled.app).post('/auth/session').set('X-Forwarded-For', address).send({ email: a.user.email, password });
      const attacker = [];
      for (let i = 0; i < 8; i++) attacker.push((await from('203.0.113.20', 'guess')).status);
      expect(attacker).toContain(429);
      // The owner, elsewhere, is not affected by the attacker's failures.
      expect((await from('198.51.100.20', a.user.password)).status).toBe(200);
      // From the attacker's address, the right password waits for the delay, then works.
      const waiting = await from('203.0.113.20', a.user.password);
      expect(waiting.status).toBe(429);
      const retryAfter = Number(waiting.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      now += (retryAfter + 1) * 1000;
      expect((await from('203.0.113.20', a.user.password)).status).toBe(200);
    } finally {
      await throttled.deps.close();
    }
  });
});
