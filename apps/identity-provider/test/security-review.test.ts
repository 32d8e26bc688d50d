// Each finding of the security review, reproduced as the attack it describes, through HTTP.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, buildIdp, obtainCode, pkce, REDIRECT, signIn, useIdp } from './helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

const exchange = (client: { client_id: string; client_secret?: string | null }, body: Record<string, string>) => {
  const req = request(app()).post('/oauth/token').type('form');
  if (client.client_secret) req.set('Authorization', basic(client.client_id, client.client_secret));
  return req.send({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...(client.client_secret ? {} : { client_id: client.client_id }), ...body });
};
const refreshWith = (client: { client_id: string; client_secret: string | null }, refresh_token: string) =>
  request(app()).post('/oauth/token').set('Authorization', basic(client.client_id, client.client_secret!)).send({ grant_type: 'refresh_token', refresh_token });
const userinfo = (token: string) => request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);

async function tokens(a: Awaited<ReturnType<typeof arrange>>, scope?: string) {
  const session = await signIn(app(), a.user.email, a.user.password);
  const { code, verifier, authorizationId } = await obtainCode(app(), a.confidential.client_id, session, scope ? { scope } : {});
  const res = await exchange(a.confidential, { code, code_verifier: verifier });
  expect(res.status).toBe(200);
  return { session, authorizationId, ...(res.body as { access_token: string; refresh_token: string }) };
}

describe('finding 1: an authorization id alone does not reveal its code', () => {
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

describe('findings 2 and 3: the grant’s access tokens end with its refresh tokens', () => {
  it('revokes every access token of the grant when a rotated refresh token is reused', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a);
    const rotated = await refreshWith(a.confidential, t.refresh_token);
    expect(rotated.status).toBe(200);
    expect((await userinfo(rotated.body.access_token)).status).toBe(200);
    // A thief replays the old refresh token.
    expect((await refreshWith(a.confidential, t.refresh_token)).body.error).toBe('invalid_grant');
    expect((await userinfo(t.access_token)).status).toBe(401);
    expect((await userinfo(rotated.body.access_token)).status).toBe(401);
    expect((await refreshWith(a.confidential, rotated.body.refresh_token)).body.error).toBe('invalid_grant');
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

describe('finding 4: login CSRF', () => {
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

describe('finding 5: consent shows every scope it grants', () => {
  it('shows implied scopes on the consent page and grants only what stays checked', async () => {
    const a = await arrange(suite.db, { scopes: 'openid identity:read identity:date_of_birth' });
    const agent = request.agent(app());
    const { challenge } = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'identity:date_of_birth',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const session = await signIn(app(), a.user.email, a.user.password);
    const page = await agent.get('/consent').set('Cookie', `svc_session=${session}`).query({ authorization_id: started.body.authorization_id });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="identity:date_of_birth"');
    expect(page.text).toContain('value="identity:read"');
    const context = await request(app())
      .get('/oauth/authorize/context')
      .set('Authorization', `Bearer ${session}`)
      .query({ authorization_id: started.body.authorization_id });
    expect(context.body.scopes.map((s: { id: string }) => s.id)).toEqual(['identity:date_of_birth', 'identity:read']);
    // The user unticks the implied scope: it is not granted.
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id, scopes: ['identity:date_of_birth'] });
    expect(approved.status).toBe(200);
    expect(approved.body.granted_scopes).toEqual(['identity:date_of_birth']);
  });
});

describe('finding 6: user info stays within its scopes and window', () => {
  it('does not show service_id to a token without openid', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a, 'identity:read');
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(200);
    expect(res.body.service_id).toBeUndefined();
    const preset = await request(app()).get('/v2/presets/service_uuid').set('Authorization', `Bearer ${t.access_token}`);
    expect(preset.status).toBe(403);
  });

  it('refuses user info once the data window is over', async () => {
    const a = await arrange(suite.db, { presetCacheTtl: 60 });
    const t = await tokens(a);
    await suite.db.authorization.update({ where: { id: t.authorizationId }, data: { approvedAt: new Date(Date.now() - 120_000) } });
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('E4010');
  });
});

describe('finding 7: strangers cannot use up a public client’s rate limit', () => {
  it('keeps serving the real users while one address floods the token endpoint with the client’s id', async () => {
    // A still clock: no rate window can end in the middle of the test.
    const at = new Date();
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '20', TRUST_PROXY: 'true' }, { now: () => at });
    try {
      const a = await arrange(suite.db);
      const flood = [];
      for (let i = 0; i < 40; i++) {
        flood.push(
          (
            await request(limited.app)
              .post('/oauth/token')
              .set('X-Forwarded-For', '203.0.113.9')
              .type('form')
              .send({
                grant_type: 'authorization_code',
                client_id: a.publicClient.client_id,
                code: `svccode_${i}`,
                redirect_uri: REDIRECT,
                code_verifier: 'x'.repeat(43),
              })
          ).status,
        );
      }
      expect(flood).toContain(429);
      const session = await signIn(limited.app, a.user.email, a.user.password);
      const { code, verifier } = await obtainCode(limited.app, a.publicClient.client_id, session);
      const real = await request(limited.app)
        .post('/oauth/token')
        .set('X-Forwarded-For', '198.51.100.7')
        .type('form')
        .send({ grant_type: 'authorization_code', client_id: a.publicClient.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier });
      expect(real.status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });
});

describe('finding 10: malformed HTTP Basic credentials', () => {
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

describe('finding 12: unauthenticated authorization requests are bounded', () => {
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
      expect((await request(limited.app).get('/oauth/authorize').set('X-Forwarded-For', '198.51.100.10').query(query)).status).toBe(200);
    } finally {
      await limited.deps.close();
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

describe('finding 10: odd client ids', () => {
  it.each(['\u0000', 'a\u0000b', '\ud800', 'é'])('answers 401 for client_id %j at the user-token endpoint, never 500', async (clientId) => {
    const res = await request(app()).post('/oauth/client/user-token').send({ client_id: clientId, client_secret: 'x', email: 'a@b.c' });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
  });
});

describe('finding 10: compressed-body labels on plain bodies', () => {
  it('answers 400 for Content-Encoding: gzip on a plain body', async () => {
    const res = await request(app())
      .post('/auth/session')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('{"email":"a@b.c","password":"x"}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_body');
  });
});

describe('finding 11: failed sign-ins slow down, never lock out', () => {
  it('lets the owner in from another address while an attacker’s address waits, and lets it in after the delay', async () => {
    const throttled = buildIdp({ TRUST_PROXY: 'true' });
    // Time stands still unless the test moves it: how slow the machine is changes nothing.
    let now = Date.now();
    throttled.deps.clock.now = () => new Date(now);
    try {
      const a = await arrange(suite.db);
      const from = (address: string, password: string) =>
        request(throttled.app).post('/auth/session').set('X-Forwarded-For', address).send({ email: a.user.email, password });
      const attacker = [];
      for (let i = 0; i < 8; i++) attacker.push((await from('203.0.113.20', 'guess')).status);
      expect(attacker).toContain(429);
      // The owner, elsewhere, is not affected by the attacker's failures.
      expect((await from('198.51.100.20', a.user.password)).status).toBe(200);
      // From the attacker's address, the right password waits for the delay, then works.
      const waiting = await from('203.0.113.20', a.user.password);
      expect(waiting.status).toBe(429);
      const retryAfter = Number(waiting.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      now += (retryAfter + 1) * 1000;
      expect((await from('203.0.113.20', a.user.password)).status).toBe(200);
    } finally {
      await throttled.deps.close();
    }
  });
});

describe('finding 13: IDP_SECRET must be a real secret', () => {
  it.each(['change-me-to-32-or-more-random-characters', 'x'.repeat(40)])('refuses %s at start-up', (secret) => {
    expect(() => buildIdp({ IDP_SECRET: secret })).toThrow(/IDP_SECRET/);
  });
});

describe('RFC 7523 private_key_jwt', () => {
  it('authenticates with a signed assertion once, and refuses its replay, a wrong audience and a guessed secret', async () => {
    const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const a = await arrange(suite.db);
    const { createClient } = await import('@svc/admin');
    const keyed = await createClient(a.ctx, {
      org: a.org.id,
      name: 'Keyed App',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read',
      jwks: JSON.stringify({ keys: [jwk] }),
    });
    expect(keyed.client_secret).toBeNull();
    const assertion = (audience = 'https://id.example.com') =>
      new SignJWT({ jti: crypto.randomUUID() })
        .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
        .setIssuer(keyed.client_id)
        .setSubject(keyed.client_id)
        .setAudience(audience)
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(privateKey);
    const session = await signIn(app(), a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(app(), keyed.client_id, session, { scope: 'openid identity:read' });
    const once = await assertion();
    const send = (client_assertion: string, extra: Record<string, string> = {}) =>
      request(app())
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'authorization_code',
          code,
          redirect_uri: REDIRECT,
          code_verifier: verifier,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion,
          ...extra,
        });
    expect((await send(await assertion('https://elsewhere.example'))).status).toBe(401);
    const ok = await send(once);
    expect(ok.status).toBe(200);
    const replay = await send(once);
    expect(replay.status).toBe(401);
    expect(replay.body.error_description).toMatch(/already used/);
    // A secret the client does not have cannot stand in for its keys.
    expect(
      (
        await request(app())
          .post('/oauth/token')
          .set('Authorization', basic(keyed.client_id, 'anything'))
          .send({ grant_type: 'refresh_token', refresh_token: ok.body.refresh_token })
      ).status,
    ).toBe(401);
  });
});

describe('finding 14: signing keys are encrypted at rest', () => {
  it('keeps no private key material in the database, and still signs', async () => {
    const a = await arrange(suite.db);
    await tokens(a);
    const rows = await suite.db.signingKey.findMany({ where: { service: 'identity-provider' } });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.privateKey).toMatchObject({ enc: 'envelope-v1' });
      expect(JSON.stringify(row.privateKey)).not.toMatch(/"(d|p|q|dp|dq|qi)":/);
    }
  });

  it('seals a key stored in plain text before encryption existed, the first time it is loaded', async () => {
    const { generateKey } = await import('@svc/signing-keys');
    const legacy = await generateKey('identity-provider');
    await suite.db.signingKey.create({ data: { ...legacy, service: 'identity-provider', status: 'retiring', publishUntil: new Date(Date.now() + 3_600_000) } });
    const fresh = buildIdp();
    try {
      await fresh.deps.signingKeys.signer();
      const row = await suite.db.signingKey.findUniqueOrThrow({ where: { kid: legacy.kid } });
      expect(row.privateKey).toMatchObject({ enc: 'envelope-v1' });
    } finally {
      await fresh.deps.close();
    }
  });
});
