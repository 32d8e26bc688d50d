import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, buildIdp, useIdp } from '../helpers.js';

const suite = useIdp();

describe('the per-client rate limit', () => {
  it('answers 429 with Retry-After past RATE_LIMIT_DEFAULT per unit, counting per client', async () => {
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '3', RATE_LIMIT_UNIT: 'hour' });
    try {
      const a = await arrange(suite.db);
      const b = await arrange(suite.db);
      const ask = (c: { client_id: string; client_secret: string | null }) =>
        request(limited.app)
          .post('/oauth/token')
          .set('Authorization', basic(c.client_id, c.client_secret!))
          .send({ grant_type: 'refresh_token', refresh_token: 'svcrt_none' });
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await ask(a.confidential)).status);
      expect(statuses).toEqual([400, 400, 400, 429]);
      const refused = await ask(a.confidential);
      expect(refused.body.error).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.headers['x-ratelimit-limit']).toBe('3');
      expect((await ask(b.confidential)).status).toBe(400);
      expect((await request(limited.app).get('/.well-known/svc-configuration')).body).toMatchObject({ rate_limit_default: 3, rate_limit_unit: 'hour' });
    } finally {
      await limited.deps.close();
    }
  });
});
