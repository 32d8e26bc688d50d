import { describe, expect, it } from '@jest/globals';
import { registerWallet } from '@svc/admin';
import request from 'supertest';
import { arrange, basic, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();

const tokens = (a: Awaited<ReturnType<typeof arrange>>) => issueTokens(suite.idp.app, a);
const userinfo = (token: string) => request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);

describe('POST /oauth/client/user-token', () => {
  it('issues a token with the scopes of the user’s active authorization, found by email or wallet', async () => {
    const a = await arrange(suite.db);
    await registerWallet(a.ctx, { email: a.user.email, wallet: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' });
    const t = await tokens(a);
    for (const named of [{ email: a.user.email }, { evm_address: '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB' }, { identifier: a.user.id }]) {
      const res = await request(suite.idp.app)
        .post('/oauth/client/user-token')
        .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, ...named });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 900,
        issued_at: expect.any(String),
        user_id: t.app_scoped_user_id,
        client_id: a.confidential.client_id,
        authorization_id: t.authorizationId,
        scopes: t.granted_scopes,
      });
      expect((await userinfo(res.body.access_token)).status).toBe(200);
    }
  });

  it('refuses a wrong secret, and hides users without an authorization', async () => {
    const a = await arrange(suite.db);
    expect(
      (
        await request(suite.idp.app)
          .post('/oauth/client/user-token')
          .send({ client_id: a.confidential.client_id, client_secret: 'svcs_nope', email: a.user.email })
      ).status,
    ).toBe(401);
    const none = await request(suite.idp.app)
      .post('/oauth/client/user-token')
      .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, email: a.other.email });
    expect(none.status).toBe(404);
    const ghost = await request(suite.idp.app)
      .post('/oauth/client/user-token')
      .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, email: 'ghost@test.example' });
    expect(ghost.status).toBe(404);
    // The same answer either way (only the request id differs).
    expect({ ...ghost.body, request_id: undefined }).toEqual({ ...none.body, request_id: undefined });
  });

  it('refuses a public client, whose client_id proves nothing, and credentials sent as HTTP Basic', async () => {
    const a = await arrange(suite.db);
    const asPublic = await request(suite.idp.app).post('/oauth/client/user-token').send({ client_id: a.publicClient.client_id, email: a.user.email });
    expect(asPublic.status).toBe(401);
    expect(asPublic.body).toMatchObject({ error: 'invalid_client', error_description: 'A public client cannot use this endpoint' });
    const asBasic = await request(suite.idp.app)
      .post('/oauth/client/user-token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ client_id: a.confidential.client_id, email: a.user.email });
    expect(asBasic.status).toBe(401);
  });
});
