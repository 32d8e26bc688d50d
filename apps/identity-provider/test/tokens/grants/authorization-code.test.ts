import { describe, expect, it } from '@jest/globals';
import { sha256Hex } from '@svc/secrets';
import request from 'supertest';
import { arrange, basic, useIdp, obtainCode, pkce, REDIRECT, signIn } from '../../helpers.js';

const suite = useIdp();

const exchange = (client: { client_id: string; client_secret: string | null }, body: Record<string, string>) =>
  request(suite.idp.app)
    .post('/oauth/token')
    .set('Authorization', basic(client.client_id, client.client_secret!))
    .send({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...body });

async function tokensFor(arranged: Awaited<ReturnType<typeof arrange>>) {
  const session = await signIn(suite.idp.app, arranged.user.email, arranged.user.password);
  const { code, verifier } = await obtainCode(suite.idp.app, arranged.confidential.client_id, session);
  const token = await exchange(arranged.confidential, { code, code_verifier: verifier });
  return { session, code, verifier, token: token.body };
}

describe('code exchange', () => {
  it('refuses a wrong PKCE verifier and a missing one', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code } = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    const wrong = await exchange(a.confidential, { code, code_verifier: pkce().verifier });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
      request_id: expect.any(String),
    });
    const missing = await exchange(a.confidential, { code });
    expect(missing.status).toBe(400);
    expect(missing.body.error).toBe('invalid_request');
  });

  it('revokes the tokens issued from a code that is replayed', async () => {
    const a = await arrange(suite.db);
    const { code, verifier, token } = await tokensFor(a);
    expect((await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token.access_token}`)).status).toBe(200);
    const replay = await exchange(a.confidential, { code, code_verifier: verifier });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    const refused = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token.access_token}`);
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toMatch(/^Bearer error="invalid_token"/);
    const refresh = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('lets exactly one of two parallel exchanges of one code succeed', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    const results = await Promise.all([
      exchange(a.confidential, { code, code_verifier: verifier }),
      exchange(a.confidential, { code, code_verifier: verifier }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
  });

  it('refuses an expired code, a code of another client and a changed redirect_uri', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const first = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    await suite.db.authorizationCode.update({ where: { codeHash: sha256Hex(first.code) }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await exchange(a.confidential, { code: first.code, code_verifier: first.verifier })).body.error_description).toBe(
      'The authorization code has expired',
    );
    const second = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    expect((await exchange(b.confidential, { code: second.code, code_verifier: second.verifier })).body.error_description).toBe(
      'The authorization code was issued to another client',
    );
    expect((await exchange(a.confidential, { code: second.code, code_verifier: second.verifier, redirect_uri: `${REDIRECT}?x` })).body.error_description).toBe(
      'redirect_uri differs from the authorization request',
    );
  });

  it('lets no other client revoke a grant by replaying its spent code: only the code’s own client’s replay revokes (RFC 6749 §4.1.2)', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    const tokens = await exchange(a.confidential, { code, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    // A leaked, spent code in another client's hands: refused, and the owner's grant stands.
    const stranger = await exchange(b.confidential, { code, code_verifier: verifier });
    expect(stranger.body.error_description).toBe('The authorization code was issued to another client');
    const authorization = await suite.db.authorization.findUniqueOrThrow({ where: { id: tokens.body.authorization_id } });
    expect(authorization.status).toBe('consumed');
    const read = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${tokens.body.access_token}`);
    expect(read.status).toBe(200);
    // The same client presenting it again is the replay RFC 9700 §4.2.4 means: everything goes.
    expect((await exchange(a.confidential, { code, code_verifier: verifier })).body.error_description).toMatch(/already used/);
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: tokens.body.authorization_id } })).status).toBe('revoked');
  });

  it('authenticates confidential clients and refuses one that sends no secret', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.confidential.client_id, session);
    const noSecret = await request(suite.idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: a.confidential.client_id });
    expect(noSecret.status).toBe(401);
    expect(noSecret.body.error).toBe('invalid_client');
    const wrong = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, 'svcs_wrong'))
      .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic/);
    const post = await request(suite.idp.app).post('/oauth/token').type('form').send({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: a.confidential.client_id,
      client_secret: a.confidential.client_secret,
    });
    expect(post.status).toBe(200);
  });

  it('refuses the password grant and unknown grants', async () => {
    const res = await request(suite.idp.app).post('/oauth/token').type('form').send({ grant_type: 'password', username: 'a', password: 'b' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('unsupported_grant_type');
  });
});
