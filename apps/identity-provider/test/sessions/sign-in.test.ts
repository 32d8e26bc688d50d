import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, useIdp } from '../helpers.js';

const suite = useIdp();

describe('sign-in', () => {
  it('answers a wrong password with a clear 401 and slows repeated failures', async () => {
    // Time stands still: each attempt is stamped before its password is checked, so on a loaded
    // machine a running clock could let the earned 1 s delay pass before the next request (CI saw 200).
    const frozen = buildIdp({}, { now: () => new Date(Date.parse('2026-11-25T12:00:00Z')) });
    try {
      const a = await arrange(suite.db);
      const attempt = () => request(frozen.app).post('/auth/session').send({ email: a.user.email, password: 'wrong password' });
      const first = await attempt();
      expect(first.status).toBe(401);
      expect(first.body).toEqual({ error: 'invalid_credentials', error_description: 'The email or password is wrong', request_id: expect.any(String) });
      for (let i = 0; i < 4; i++) await attempt();
      const blocked = await request(frozen.app).post('/auth/session').send({ email: a.user.email, password: a.user.password });
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await frozen.deps.close();
    }
  });
});
