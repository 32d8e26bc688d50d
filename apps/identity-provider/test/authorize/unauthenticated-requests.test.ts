import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, pkce, REDIRECT, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

describe('unauthenticated authorization requests are bounded', () => {
  it('rate-limits /oauth/authorize per client and source', async () => {
    const at = new Date();
    const limited = buildIdp({ TRUST_PROXY: 'true', AUTHORIZE_RATE_LIMIT: '5' }, { now: () => at });
    try {
      const a = await arrange(suite.db);
      const { challenge } = pkce();
      const query = {
        client_id: a.publicClient.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      };
      const statuses = [];
      for (let i = 0; i < 7; i++)
        statuses.push((await request(limited.app).get('/oauth/authorize').set('X-Forwarded-For', '203.0.113.10').query(query)).status);
      expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
      expect(statuses.slice(5)).toEqual([429, 429]);
      // A browser gets the refusal as a page in its language, with the same Retry-After.
      const page = await request(limited.app)
        .get('/oauth/authorize')
        .set('X-Forwarded-For', '203.0.113.10')
        .set('Accept', 'text/html')
        .set('Accept-Language', 'de')
        .query(query);
      expect(page.status).toBe(429);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['retry-after']).toMatch(/^\d+$/);
      expect(page.text).toContain('Von hier kamen gerade zu viele Anmeldeanfragen.');
      expect((await request(limited.app).get('/oauth/authorize').set('X-Forwarded-For', '198.51.100.10').query(query)).status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });

  it('shows a browser a page while the database is unreachable, and API callers the JSON 503', async () => {
    const down = buildIdp({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/unreachable' });
    try {
      const id = '00000000-0000-4000-8000-000000000000';
      const page = await request(down.app).get('/consent').set('Accept', 'text/html').query({ authorization_id: id });
      expect(page.status).toBe(503);
      expect(page.headers['retry-after']).toBe('5');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('The sign-in service is briefly unavailable. Wait a moment, then try again.');
      const api = await request(down.app).get('/oauth/authorize/context').set('Authorization', 'Bearer svcsess_unknown').query({ authorization_id: id });
      expect(api.status).toBe(503);
      expect(api.body).toMatchObject({ error: 'temporarily_unavailable' });
    } finally {
      await down.deps.close();
    }
  });

  it('purges expired pending authorizations', async () => {
    const a = await arrange(suite.db);
    const { challenge } = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.publicClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    await suite.db.authorization.update({ where: { id: started.body.authorization_id }, data: { expiresAt: new Date(Date.now() - 2 * 3_600_000) } });
    const purged = await suite.idp.deps.purgeExpired();
    expect(purged).toBeGreaterThanOrEqual(1);
    expect(await suite.db.authorization.findUnique({ where: { id: started.body.authorization_id } })).toBeNull();
  });
});
