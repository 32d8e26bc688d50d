import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

const refreshWith = (client: { client_id: string; client_secret: string | null }, refresh_token: string) =>
  request(app()).post('/oauth/token').set('Authorization', basic(client.client_id, client.client_secret!)).send({ grant_type: 'refresh_token', refresh_token });
const userinfo = (token: string) => request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
const tokens = (a: Awaited<ReturnType<typeof arrange>>, scope?: string) => issueTokens(app(), a, scope);

describe('the grant’s access tokens end with its refresh tokens', () => {
  it('revokes every access token of the grant when a rotated refresh token is reused', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const rotated = await refreshWith(a.confidential, t.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await userinfo(rotated.body.access_token)).status).toBe(200);
    const again = await refreshWith(a.confidential, rotated.body.refresh_token);
    expect(again.status).toBe(200);
    // A thief replays the first refresh token, whose successor the client has used: no retry, reuse.
    expect((await refreshWith(a.confidential, t.refresh_token)).body.error).toBe('invalid_grant');
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await userinfo(rotated.body.access_token)).status).toBe(401);
    expect((await userinfo(again.body.access_token)).status).toBe(401);
    expect((await refreshWith(a.confidential, again.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('ends the grant’s access tokens when a refresh token is revoked, without cascade', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(app())
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .type('form')
      .send({ token: t.refresh_token });
    expect(res.body).toMatchObject({ revoked: true, revoked_count: 1 });
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await refreshWith(a.confidential, t.refresh_token)).body.error).toBe('invalid_grant');
  });
});
