import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { uniqueNamespace } from '@svc/testkit';
import { createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, jwtVerify, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, basic, buildIdp, exchangeWith, issueTokens, obtainCode, signIn, useIdp } from '../helpers.js';

// RFC 7662 token introspection (and RFC 9701's signed answer), through HTTP.
const suite = useIdp();
const app = () => suite.idp.app;
type Arranged = Awaited<ReturnType<typeof arrange>>;
type Client = { client_id: string; client_secret?: string | null };

const introspect = (client: Client, body: Record<string, string>, target = app()) =>
  request(target).post('/oauth/introspect').type('form').set('Authorization', basic(client.client_id, client.client_secret!)).send(body);

const INACTIVE = { active: false };

describe('an access token of the asking client', () => {
  it('is active with its scope, client, pairwise subject, expiry and grant', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    const res = await introspect(a.confidential, { token: t.access_token });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      active: true,
      scope: t.granted_scopes.join(' '),
      client_id: a.confidential.client_id,
      token_type: 'Bearer',
      exp: expect.any(Number),
      iat: expect.any(Number),
      sub: t.app_scoped_user_id,
      aud: `${suite.idp.deps.config.issuer}/v2`,
      iss: suite.idp.deps.config.issuer,
      jti: expect.any(String),
      authorization_id: t.authorizationId,
    });
    expect(res.body.exp - res.body.iat).toBe(900);
  });

  it('is inactive once revoked, once its grant is revoked, and once expired', async () => {
    const a = await arrange(suite.db);
    const first = await issueTokens(app(), a);
    const revoke = (body: Record<string, string>) =>
      request(app()).post('/oauth/revoke').set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!)).send(body);
    expect((await revoke({ token: first.access_token, token_type_hint: 'access_token' })).body.revoked).toBe(true);
    expect((await introspect(a.confidential, { token: first.access_token })).body).toEqual(INACTIVE);

    const second = await issueTokens(app(), a);
    expect((await introspect(a.confidential, { token: second.access_token })).body.active).toBe(true);
    expect((await revoke({ authorization_id: second.authorizationId })).body.revoked).toBe(true);
    expect((await introspect(a.confidential, { token: second.access_token })).body).toEqual(INACTIVE);
    expect((await introspect(a.confidential, { token: second.refresh_token })).body).toEqual(INACTIVE);

    const third = await issueTokens(app(), a);
    const later = buildIdp({ REDIS_KEY_PREFIX: uniqueNamespace('introspect-later') }, { now: () => new Date(Date.now() + 901_000) });
    try {
      expect((await introspect(a.confidential, { token: third.access_token }, later.app)).body).toEqual(INACTIVE);
    } finally {
      await later.deps.close();
    }
  });

  it('says DPoP and carries cnf.jkt when the token is bound to a key', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(app(), a.confidential.client_id, session);
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const proof = await new SignJWT({ htm: 'POST', htu: `${suite.idp.deps.config.issuer}/oauth/token`, jti: randomUUID(), nonce: suite.idp.deps.dpop.nonce() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(publicKey) })
      .setIssuedAt()
      .sign(privateKey);
    const issued = await exchangeWith(app(), a.confidential, { code, code_verifier: verifier }).set('DPoP', proof);
    expect(issued.body.token_type).toBe('DPoP');
    const res = await introspect(a.confidential, { token: issued.body.access_token });
    expect(res.body).toMatchObject({ active: true, token_type: 'DPoP', cnf: { jkt: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) } });
  });
});

describe('a refresh token of the asking client', () => {
  it('is active until it rotates; the hint only orders the search', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    for (const hint of [
      {} as Record<string, string>,
      { token_type_hint: 'refresh_token' },
      { token_type_hint: 'access_token' },
      { token_type_hint: 'something_else' },
    ]) {
      const res = await introspect(a.confidential, { token: t.refresh_token, ...hint });
      expect(res.body).toEqual({
        active: true,
        scope: t.granted_scopes.join(' '),
        client_id: a.confidential.client_id,
        exp: expect.any(Number),
        sub: t.app_scoped_user_id,
        iss: suite.idp.deps.config.issuer,
        authorization_id: t.authorizationId,
      });
    }
    const rotated = await request(app())
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
    expect(rotated.status).toBe(200);
    expect((await introspect(a.confidential, { token: t.refresh_token })).body).toEqual(INACTIVE);
    expect((await introspect(a.confidential, { token: rotated.body.refresh_token })).body.active).toBe(true);
  });
});

describe('what the asking client may not learn', () => {
  it('another client’s live tokens are inactive, and nothing else is said', async () => {
    const a = await arrange(suite.db);
    const b: Arranged = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    expect((await introspect(b.confidential, { token: t.access_token })).body).toEqual(INACTIVE);
    expect((await introspect(b.confidential, { token: t.refresh_token })).body).toEqual(INACTIVE);
    // …and asking changed nothing for their owner.
    expect((await introspect(a.confidential, { token: t.access_token })).body.active).toBe(true);
  });

  it.each([
    ['garbage', 'not a token'],
    ['an unknown refresh token', 'svcrt_0123456789abcdefghijABCDEFGHIJ0123456789a'],
    ['a JWT signed by someone else', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('%s is inactive', async (_what, token) => {
    const a = await arrange(suite.db);
    expect((await introspect(a.confidential, { token })).body).toEqual(INACTIVE);
  });

  it('a public client cannot introspect, nor anyone without credentials or with a wrong secret', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    const asPublic = await request(app()).post('/oauth/introspect').type('form').send({ token: t.access_token, client_id: a.publicClient.client_id });
    expect(asPublic.status).toBe(401);
    expect(asPublic.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('public client') });
    const anonymous = await request(app()).post('/oauth/introspect').type('form').send({ token: t.access_token });
    expect(anonymous.status).toBe(401);
    const wrong = await introspect({ client_id: a.confidential.client_id, client_secret: 'svcs_wrong' }, { token: t.access_token });
    expect(wrong.status).toBe(401);
    expect(wrong.body.active).toBeUndefined();
  });

  it('a request without a token is 400 naming the field', async () => {
    const a = await arrange(suite.db);
    const res = await introspect(a.confidential, {});
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('token');
  });

  it('introspection has a budget of its own: past it 429, and token requests still pass', async () => {
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '3', RATE_LIMIT_UNIT: 'hour', REDIS_KEY_PREFIX: uniqueNamespace('introspect-limit') });
    try {
      const a = await arrange(suite.db);
      const t = await issueTokens(app(), a);
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await introspect(a.confidential, { token: t.access_token }, limited.app)).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const refresh = await request(limited.app)
        .post('/oauth/token')
        .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
        .send({ grant_type: 'refresh_token', refresh_token: t.refresh_token });
      expect(refresh.status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });
});

describe('the signed answer (RFC 9701)', () => {
  it('is a JWT of the issuer for the asking client, verifiable with the published keys', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    const res = await introspect(a.confidential, { token: t.access_token }).set('Accept', 'application/token-introspection+jwt');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/token-introspection\+jwt/);
    const jwt = res.text;
    expect(decodeProtectedHeader(jwt)).toMatchObject({ alg: 'RS256', typ: 'token-introspection+jwt' });
    const jwks = (await request(app()).get('/.well-known/jwks.json')).body;
    const { payload } = await jwtVerify(jwt, createLocalJWKSet(jwks), {
      issuer: suite.idp.deps.config.issuer,
      audience: a.confidential.client_id,
      typ: 'token-introspection+jwt',
    });
    expect(payload.token_introspection).toMatchObject({ active: true, client_id: a.confidential.client_id, sub: t.app_scoped_user_id });
    const inactive = await introspect(a.confidential, { token: 'nothing' }).set('Accept', 'application/token-introspection+jwt');
    expect((await jwtVerify(inactive.text, createLocalJWKSet(jwks))).payload.token_introspection).toEqual(INACTIVE);
  });
});
