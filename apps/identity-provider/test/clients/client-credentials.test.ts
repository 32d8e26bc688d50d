import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

describe('malformed HTTP Basic credentials', () => {
  it.each([
    ['/oauth/token', 'post'],
    ['/oauth/revoke', 'post'],
    ['/v2/authorizations', 'get'],
  ] as const)('answers 400 on %s, not 500', async (path, method) => {
    const header = `Basic ${Buffer.from('svc_client_x:%E0%A4%A').toString('base64')}`;
    const res = await request(app())
      [method](path)
      .set('Authorization', header)
      .send(method === 'post' ? { grant_type: 'refresh_token', refresh_token: 'x', token: 'x' } : undefined);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.error_description).toMatch(/percent-encoding/);
  });
});

describe('odd client ids', () => {
  it.each(['\u0000', 'a\u0000b', '\ud800', 'é'])('answers 401 for client_id %j at the user-token endpoint, never 500', async (clientId) => {
    const res = await request(app()).post('/oauth/client/user-token').send({ client_id: clientId, client_secret: 'x', email: 'a@b.c' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});
