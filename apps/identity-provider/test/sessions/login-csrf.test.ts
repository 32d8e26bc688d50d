import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

describe('POST /auth/session and login CSRF', () => {
  it('refuses a cross-site form post to POST /auth/session', async () => {
    const a = await arrange(suite.db);
    const forged = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://evil.example')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toBe('csrf_failed');
    expect(forged.headers['set-cookie']).toBeUndefined();
    const noOrigin = await request(app()).post('/auth/session').type('form').send({ email: a.user.email, password: a.user.password });
    expect(noOrigin.status).toBe(403);
    const crossSite = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://id.example.com')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(crossSite.status).toBe(403);
  });

  it('still signs in a same-origin form post and a JSON API caller', async () => {
    const a = await arrange(suite.db);
    const form = await request(app())
      .post('/auth/session')
      .set('Origin', 'https://id.example.com')
      .set('Sec-Fetch-Site', 'same-origin')
      .type('form')
      .send({ email: a.user.email, password: a.user.password });
    expect(form.status).toBe(200);
    const json = await request(app()).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    expect(json.status).toBe(200);
  });
});
