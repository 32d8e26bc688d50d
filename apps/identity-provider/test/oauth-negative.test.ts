import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { sha256Hex } from '@svc/secrets';
import { SignJWT, decodeJwt, importJWK } from 'jose';
import request from 'supertest';
import { arrange, basic, useIdp, obtainCode, pkce, REDIRECT, signIn } from './helpers.js';

const suite = useIdp();

const authorize = (query: Record<string, string>) => request(suite.idp.app).get('/oauth/authorize').query(query);
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

describe('authorization requests', () => {
  it('never redirects for an unknown client or a redirect_uri that does not match exactly', async () => {
    const { confidential } = await arrange(suite.db);
    const { challenge } = pkce();
    const base = { client_id: confidential.client_id, response_type: 'code', scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' };
    for (const redirect_uri of [`${REDIRECT}/`, `${REDIRECT}?x=1`, 'https://evil.example/callback', REDIRECT.toUpperCase()]) {
      const res = await authorize({ ...base, redirect_uri });
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.body.error).toBe('invalid_request');
    }
    const unknown = await authorize({ ...base, client_id: 'svc_client_nope', redirect_uri: REDIRECT });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toBe('invalid_client');
    const page = await authorize({ ...base, redirect_uri: 'https://evil.example/cb' }).set('Accept', 'text/html');
    expect(page.status).toBe(400);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.text).toContain('redirect_uri does not exactly match');
  });

  it.each([
    [{ code_challenge: undefined }, 'invalid_request', /code_challenge is required/],
    [{ code_challenge_method: 'plain' }, 'invalid_request', /must be S256/],
    [{ response_type: 'token' }, 'unsupported_response_type', /response_type=code/],
    [{ scope: 'openid admin' }, 'invalid_scope', /Unknown scopes: admin/],
    [{ scope: 'kyc:document_number' }, 'invalid_scope', /may not request/],
  ])('redirects %j back with error, state and iss', async (change, error, description) => {
    const { confidential } = await arrange(suite.db);
    const { challenge } = pkce();
    const query: Record<string, string | undefined> = {
      client_id: confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 'xyz',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...change,
    };
    const res = await authorize(Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) as Record<string, string>);
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location!);
    expect(`${location.origin}${location.pathname}`).toBe(REDIRECT);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('error_description')).toMatch(description);
    expect(location.searchParams.get('state')).toBe('xyz');
    expect(location.searchParams.get('iss')).toBe('https://id.example.com');
  });
});

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

describe('access tokens', () => {
  it('refuses alg none, HS256 keyed with the public key, a tampered payload and another issuer', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const claims = decodeJwt(token.access_token);
    const [header, payload, signature] = token.access_token.split('.');
    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'at+jwt' })}.${payload}.`;
    const tampered = `${header}.${b64({ ...claims, scope: 'openid kyc:read financial:net_worth' })}.${signature}`;
    const jwks = (await request(suite.idp.app).get('/.well-known/jwks.json')).body.keys[0];
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: jwks.kid })
      .sign(new TextEncoder().encode(JSON.stringify(jwks)));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const foreign = await new SignJWT({ ...claims, iss: 'https://evil.example' })
      .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: jwks.kid })
      .sign(await importJWK(privateKey.export({ format: 'jwk' }) as never, 'RS256'));
    for (const bad of [none, tampered, hs, foreign, 'garbage']) {
      const res = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${bad}`);
      expect(res.status).toBe(401);
      expect(res.body.error).toBe('invalid_token');
    }
    expect((await request(suite.idp.app).get('/v2/userinfo')).status).toBe(401);
  });
});

describe('decisions', () => {
  it('answers 404 for an authorization id that is not a UUID, whatever its shape', async () => {
    const uuidShaped = '-'.repeat(36);
    expect((await request(suite.idp.app).get('/oauth/authorize/result').query({ authorization_id: uuidShaped })).status).toBe(404);
    expect(
      (
        await request(suite.idp.app)
          .get('/consent')
          .query({ authorization_id: 'a'.repeat(36) })
      ).status,
    ).toBe(404);
  });

  it('treats a session cookie that is not our encoding as no session, not as a failure', async () => {
    const res = await request(suite.idp.app).get('/v2/developer/organization').set('Cookie', 'svc_session=%E0%A4%A');
    expect(res.status).toBe(401);
  });

  it('requires the CSRF token with the session cookie', async () => {
    const a = await arrange(suite.db);
    const signin = await request(suite.idp.app).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    const cookie = signin.headers['set-cookie']![0]!.split(';')[0]!;
    expect(signin.headers['set-cookie']![0]).toMatch(/HttpOnly/);
    expect(signin.headers['set-cookie']![0]).toMatch(/SameSite=Lax/);
    expect(signin.headers['set-cookie']![0]).toMatch(/Secure/);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/approve')
      .set('Cookie', cookie)
      .type('form')
      .send({ authorization_id: started.body.authorization_id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('csrf_failed');
    expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: started.body.authorization_id } })).status).toBe('pending_admin');
  });

  it('hides an authorization from anyone but its own user', async () => {
    const a = await arrange(suite.db);
    const owner = await signIn(suite.idp.app, a.user.email, a.user.password);
    const intruder = await signIn(suite.idp.app, a.other.email, a.other.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const id = started.body.authorization_id;
    expect((await request(suite.idp.app).get('/oauth/authorize/context').query({ authorization_id: id }).set('Authorization', `Bearer ${owner}`)).status).toBe(
      200,
    );
    for (const attempt of [
      request(suite.idp.app).get('/oauth/authorize/context').query({ authorization_id: id }).set('Authorization', `Bearer ${intruder}`),
      request(suite.idp.app).post('/oauth/authorize/approve').set('Authorization', `Bearer ${intruder}`).send({ authorization_id: id }),
      request(suite.idp.app).post('/oauth/authorize/deny').set('Authorization', `Bearer ${intruder}`).send({ authorization_id: id }),
    ]) {
      expect((await attempt).status).toBe(404);
    }
  });

  it('refuses approval by a user who is not palm-verified when the policy requires it', async () => {
    const a = await arrange(suite.db, { palmVerified: false, requiresPalm: true });
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('palm_verification_required');
  });

  it('denies with access_denied and the state', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { challenge } = pkce();
    const started = await authorize({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      state: 's9',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const res = await request(suite.idp.app)
      .post('/oauth/authorize/deny')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(res.body.status).toBe('denied');
    const to = new URL(res.body.redirect_to);
    expect([to.searchParams.get('error'), to.searchParams.get('state'), to.searchParams.get('iss')]).toEqual(['access_denied', 's9', 'https://id.example.com']);
  });
});

describe('sign-in', () => {
  it('answers a wrong password with a clear 401 and slows repeated failures', async () => {
    const a = await arrange(suite.db);
    const attempt = () => request(suite.idp.app).post('/auth/session').send({ email: a.user.email, password: 'wrong password' });
    const first = await attempt();
    expect(first.status).toBe(401);
    expect(first.body).toEqual({ error: 'invalid_credentials', error_description: 'The email or password is wrong', request_id: expect.any(String) });
    for (let i = 0; i < 4; i++) await attempt();
    const blocked = await request(suite.idp.app).post('/auth/session').send({ email: a.user.email, password: a.user.password });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  });
});
