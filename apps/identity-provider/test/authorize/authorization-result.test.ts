import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, exchangeWith, obtainCode, pkce, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const exchange = (client: { client_id: string; client_secret?: string | null }, body: Record<string, string>) => exchangeWith(app(), client, body);

describe('GET /oauth/authorize/result: an authorization id alone does not reveal its code', () => {
  it('answers a public client’s approved authorization without its code, so a stranger cannot redeem it', async () => {
    const a = await arrange(suite.db);
    // The attacker starts the flow with a PKCE pair of their own and sends the consent URL to the victim.
    const attacker = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.publicClient.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid identity:read',
      state: 's',
      code_challenge: attacker.challenge,
      code_challenge_method: 'S256',
    });
    const victim = await signIn(app(), a.user.email, a.user.password);
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${victim}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(approved.status).toBe(200);
    const polled = await request(app()).get('/oauth/authorize/result').query({ authorization_id: started.body.authorization_id });
    expect(polled.status).toBe(200);
    expect(polled.body).toMatchObject({
      authorization_id: started.body.authorization_id,
      status: 'approved',
      redirect_uri: REDIRECT,
      state: 's',
      redirect_to: null,
    });
    expect(polled.body.code).toBeUndefined();
    expect(JSON.stringify(polled.body)).not.toContain(approved.body.code);
    // The code stays good for its real destination.
    expect((await exchange(a.publicClient, { code: approved.body.code, code_verifier: attacker.verifier })).status).toBe(200);
  });

  it('gives the code to the confidential client that owns the authorization, and only to it', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, authorizationId } = await obtainCode(app(), a.confidential.client_id, session);
    const anonymous = await request(app()).get('/oauth/authorize/result').query({ authorization_id: authorizationId });
    expect(anonymous.body.code).toBeUndefined();
    const stranger = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .query({ authorization_id: authorizationId });
    expect(stranger.status).toBe(404);
    const wrongSecret = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(a.confidential.client_id, 'wrong'))
      .query({ authorization_id: authorizationId });
    expect(wrongSecret.status).toBe(401);
    const owner = await request(app())
      .get('/oauth/authorize/result')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .query({ authorization_id: authorizationId });
    expect(owner.status).toBe(200);
    expect(owner.body.code).toBe(code);
    expect(new URL(owner.body.redirect_to).searchParams.get('code')).toBe(code);
  });

  it('keeps no code in plain text in the store', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, authorizationId } = await obtainCode(app(), a.confidential.client_id, session);
    const kept = await suite.idp.deps.store.cache.get(`authz-code:${authorizationId}`);
    expect(kept).not.toBeNull();
    expect(kept).not.toContain(code);
    expect(kept).not.toContain(code.slice(8, 30));
  });
});
