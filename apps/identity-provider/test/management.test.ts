import { describe, expect, it } from '@jest/globals';
import { addMember, createUser, registerWallet } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { arrange, basic, buildIdp, useIdp, obtainCode, REDIRECT, signIn } from './helpers.js';

const suite = useIdp();

async function tokens(a: Awaited<ReturnType<typeof arrange>>) {
  const session = await signIn(suite.idp.app, a.user.email, a.user.password);
  const { code, verifier, authorizationId } = await obtainCode(suite.idp.app, a.confidential.client_id, session);
  const res = await request(suite.idp.app)
    .post('/oauth/token')
    .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
    .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
  return { session, authorizationId, ...res.body };
}

const userinfo = (token: string) => request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);

describe('POST /oauth/revoke', () => {
  it('revokes an access token at once, and reports unknown and foreign tokens', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ tokens: [t.access_token, 'svcrt_unknown', 'garbage'] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      revoked: true,
      revoked_count: 1,
      details: [
        { subject: 'token', token_type: 'access_token', authorization_id: t.authorizationId, client_id: a.confidential.client_id, status: 'revoked' },
        { subject: 'token', token_type: 'refresh_token', status: 'not_found' },
        { subject: 'token', status: 'invalid', reason: 'not a token this service issues' },
      ],
    });
    expect((await userinfo(t.access_token)).status).toBe(401);
    // The refresh token survives without cascade.
    const refreshed = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(refreshed.status).toBe(200);
  });

  it('cascades from a refresh token to its authorization and every token under it', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const res = await request(suite.idp.app).post('/oauth/revoke').type('form').send({
      token: t.refresh_token,
      token_type_hint: 'refresh_token',
      cascade: '1',
      client_id: a.confidential.client_id,
      client_secret: a.confidential.client_secret,
    });
    expect(res.body.revoked_count).toBe(1);
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: t.authorizationId } })).status).toBe('revoked');
  });

  it('revokes an authorization for its client or its own user, and for no one else', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const t = await tokens(a);
    const foreign = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    expect(foreign.body).toEqual({
      revoked: false,
      revoked_count: 0,
      details: [{ subject: 'authorization', authorization_id: t.authorizationId, status: 'not_found' }],
    });
    const byUser = await request(suite.idp.app).post('/oauth/revoke').set('Authorization', `Bearer ${t.session}`).send({ authorization_id: t.authorizationId });
    expect(byUser.body).toMatchObject({
      revoked: true,
      revoked_count: 1,
      details: [{ subject: 'authorization', authorization_id: t.authorizationId, status: 'revoked' }],
    });
    expect((await userinfo(t.access_token)).status).toBe(401);
    const missing = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({});
    expect(missing.status).toBe(400);
  });
});

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
});

describe('developer endpoints', () => {
  it('shows and renames the organization, owner only', async () => {
    const a = await arrange(suite.db);
    const owner = await signIn(suite.idp.app, a.user.email, a.user.password);
    const shown = await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${owner}`);
    expect(shown.body).toEqual({ id: a.org.id, name: 'Client Org', ownerId: a.user.id, isOwner: true });
    const renamed = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${owner}`).send({ name: '  Renamed Org ' });
    expect(renamed.body.name).toBe('Renamed Org');
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const bad = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${owner}`).send({ name });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe('body.name');
    }
    const dev = await createUser(a.ctx, { email: uniqueEmail('dev'), password: 'correct horse battery' });
    await addMember(a.ctx, { org: a.org.id, email: dev.email, role: 'developer' });
    const devSession = await signIn(suite.idp.app, dev.email, 'correct horse battery');
    expect((await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${devSession}`)).body.isOwner).toBe(false);
    const refused = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${devSession}`).send({ name: 'Mine now' });
    expect(refused.status).toBe(403);
    expect((await request(suite.idp.app).get('/v2/developer/organization')).status).toBe(401);
  });

  it('lists authorization changes for the client’s organization, paged by updated_since', async () => {
    const a = await arrange(suite.db);
    const first = await tokens(a);
    const second = await tokens(a);
    await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ authorization_id: first.authorizationId });
    const auth = basic(a.confidential.client_id, a.confidential.client_secret!);
    const all = await request(suite.idp.app).get('/v2/authorizations').set('Authorization', auth);
    expect(all.body.items.map((i: { authorization_id: string; status: string }) => [i.authorization_id, i.status])).toEqual([
      [second.authorizationId, 'active'],
      [first.authorizationId, 'revoked'],
    ]);
    expect(all.body.items[0].app_scoped_user_id).toBe(second.app_scoped_user_id);
    const page = await request(suite.idp.app).get('/v2/authorizations').query({ limit: 1 }).set('Authorization', auth);
    expect(page.body.has_more).toBe(true);
    const rest = await request(suite.idp.app).get('/v2/authorizations').query({ updated_since: page.body.last_modified }).set('Authorization', auth);
    expect(rest.body.items.map((i: { authorization_id: string }) => i.authorization_id)).toEqual([first.authorizationId]);
    expect((await request(suite.idp.app).get('/v2/authorizations').query({ status: 'revoked' }).set('Authorization', auth)).body.items).toHaveLength(1);
    expect((await request(suite.idp.app).get('/v2/authorizations').query({ limit: 201 }).set('Authorization', auth)).status).toBe(400);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    expect((await request(suite.idp.app).get('/v2/authorizations').set('Authorization', `Bearer ${session}`)).body.items).toHaveLength(2);
    expect((await request(suite.idp.app).get('/v2/authorizations')).status).toBe(401);
  });
});

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
