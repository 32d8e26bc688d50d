// Findings 10 to 14 of the security review (bad input, sign-in, secrets, keys at rest) and
// private_key_jwt, each reproduced through HTTP.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, buildIdp, issueTokens, obtainCode, pkce, REDIRECT, signIn, useIdp } from './helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const tokens = (a: Awaited<ReturnType<typeof arrange>>, scope?: string) => issueTokens(app(), a, scope);

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
      // A browser gets the refusal as a page in its language, with the same Retry-After.
      const page = await request(limited.app)
        .get('/oauth/authorize')
        .set('X-Forwarded-For', '203.0.113.10')
        .set('Accept', 'text/html')
        .set('Accept-Language', 'de')
        .query(query);
      expect(page.status).toBe(429);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['retry-after']).toMatch(/^\d+$/);
      expect(page.text).toContain('Von hier kamen gerade zu viele Anmeldeanfragen.');
      expect((await request(limited.app).get('/oauth/authorize').set('X-Forwarded-For', '198.51.100.10').query(query)).status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });

  it('shows a browser a page while the database is unreachable, and API callers the JSON 503', async () => {
    const down = buildIdp({ DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/unreachable' });
    try {
      const id = '00000000-0000-4000-8000-000000000000';
      const page = await request(down.app).get('/consent').set('Accept', 'text/html').query({ authorization_id: id });
      expect(page.status).toBe(503);
      expect(page.headers['retry-after']).toBe('5');
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('The sign-in service is briefly unavailable. Wait a moment, then try again.');
      const api = await request(down.app).get('/oauth/authorize/context').set('Authorization', 'Bearer svcsess_unknown').query({ authorization_id: id });
      expect(api.status).toBe(503);
      expect(api.body).toMatchObject({ error: 'temporarily_unavailable' });
    } finally {
      await down.deps.close();
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
