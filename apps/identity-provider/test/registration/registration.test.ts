// RFC 7591 registration for holders of an initial access token, RFC 7592 management for the
// holder of the registration access token; metadata as strict as the console's.
import { describe, expect, it } from '@jest/globals';
import { createOrg, createUser } from '@svc/admin';
import { uniqueEmail, uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { basic, buildIdp, PRODUCTION_URL, useIdp, useSandbox } from '../helpers.js';

const production = useIdp();
const sandbox = useSandbox();
const PASSWORD = 'correct horse battery';
const METADATA = { client_name: 'Registered', redirect_uris: ['https://app.example/cb'], scope: 'openid identity:read' };
type App = ReturnType<typeof buildIdp>['app'];

/** An organization's owner and an initial access token of theirs. */
async function initialAccessToken(app: App, db = production.db, hours?: number) {
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('owner'), password: PASSWORD });
  await createOrg(ctx, { name: 'Org', ownerEmail: owner.email });
  const session = (await request(app).post('/auth/session').send({ email: owner.email, password: PASSWORD })).body.session_token;
  const made = await request(app)
    .post('/v2/developer/initial-access-tokens')
    .set('Authorization', `Bearer ${session}`)
    .send(hours ? { expires_in_hours: hours } : {});
  return made.body.token as string;
}

const registerWith = (app: App, token: string | undefined, body: object) => {
  const req = request(app).post('/oauth/register');
  return (token ? req.set('Authorization', `Bearer ${token}`) : req).send(body);
};

describe('POST /oauth/register', () => {
  it('registers a confidential client whose credentials work, with a registration access token, never cached', async () => {
    const iat = await initialAccessToken(production.idp.app);
    expect(iat).toMatch(/^svciat_/);
    const res = await registerWith(production.idp.app, iat, { ...METADATA, logo_uri: 'https://ignored.example/logo.png' });
    expect(res.status).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toMatchObject({
      ...METADATA,
      token_endpoint_auth_method: 'client_secret_basic',
      // A confidential client may also get a token for itself.
      grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
      registration_client_uri: `${PRODUCTION_URL}/oauth/register/${res.body.client_id}`,
    });
    expect(res.body).not.toHaveProperty('logo_uri');
    const changes = await request(production.idp.app).get('/v2/authorizations').set('Authorization', basic(res.body.client_id, res.body.client_secret));
    expect(changes.status).toBe(200);
  });

  it('refuses without a valid initial access token: none, made up, expired, or the sandbox’s (named)', async () => {
    expect((await registerWith(production.idp.app, undefined, METADATA)).status).toBe(401);
    expect((await registerWith(production.idp.app, `svciat_${'a'.repeat(43)}`, METADATA)).body.error).toBe('invalid_token');
    const shortLived = await initialAccessToken(production.idp.app, production.db, 1);
    // Its own Redis keys: a failure it counts two hours ahead must not hold up this file's other requests.
    const later = buildIdp({ REDIS_KEY_PREFIX: uniqueNamespace('later') }, { now: () => new Date(Date.now() + 2 * 3_600_000) });
    try {
      expect((await registerWith(later.app, shortLived, METADATA)).status).toBe(401);
    } finally {
      await later.deps.close();
    }
    const sandboxToken = await initialAccessToken(sandbox.idp.app, sandbox.db);
    expect(sandboxToken).toMatch(/^sbx_svciat_/);
    const crossed = await registerWith(production.idp.app, sandboxToken, METADATA);
    expect(crossed.status).toBe(401);
    expect(crossed.body.error_description).toMatch(/^This initial access token belongs to the sandbox/);
  });

  it('counts guessed tokens per source address, registering and managing alike, then answers 429', async () => {
    const limited = buildIdp({ TRUST_PROXY: 'true', AUTH_FAILURE_LIMIT: '3', REDIS_KEY_PREFIX: uniqueNamespace('guesses') });
    try {
      const from = (req: request.Test) => req.set('X-Forwarded-For', '203.0.113.91');
      const guess = (i: number) =>
        from(
          request(limited.app)
            .post('/oauth/register')
            .set('Authorization', `Bearer svciat_${String(i).repeat(43)}`),
        ).send(METADATA);
      const statuses = [(await guess(1)).status, (await guess(2)).status];
      statuses.push(
        (
          await from(
            request(limited.app)
              .get('/oauth/register/some-client')
              .set('Authorization', `Bearer svcrat_${'3'.repeat(43)}`),
          )
        ).status,
      );
      expect(statuses).toEqual([401, 401, 401]);
      const refused = await guess(4);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBeDefined();
    } finally {
      await limited.deps.close();
    }
  });

  it('answers RFC 7591 errors naming each member, and registers nothing', async () => {
    const iat = await initialAccessToken(production.idp.app);
    const redirect = await registerWith(production.idp.app, iat, { ...METADATA, redirect_uris: ['http://evil.example/cb'] });
    expect(redirect.status).toBe(400);
    expect(redirect.body).toMatchObject({
      error: 'invalid_redirect_uri',
      details: [{ field: 'body.redirect_uris[0]', message: 'must use https (http is allowed only for localhost)' }],
    });
    // A host that is not DNS labels would be written into headers that name the URI's origin (CSP form-action).
    const odd = await registerWith(production.idp.app, iat, { ...METADATA, redirect_uris: ['https://x;sandbox/after'] });
    expect(odd.body.details).toEqual([
      { field: 'body.redirect_uris[0]', message: 'must name its host with letters, digits, hyphens and dots (or an IP address)' },
    ]);
    const metadata = await registerWith(production.idp.app, iat, {
      ...METADATA,
      scope: 'openid root',
      grant_types: ['client_credentials'],
      token_endpoint_auth_method: 'private_key_jwt',
    });
    expect(metadata.body.error).toBe('invalid_client_metadata');
    expect(metadata.body.details.map((d: { field: string }) => d.field)).toEqual(['body.grant_types', 'body.scope', 'body.jwks']);
    // client_credentials is a confidential client's: a public one may not register it.
    const publicMachine = await registerWith(production.idp.app, iat, {
      ...METADATA,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'client_credentials'],
    });
    expect(publicMachine.body.details).toEqual([
      { field: 'body.grant_types', message: 'client_credentials is for a client that authenticates, not token_endpoint_auth_method none' },
    ]);
    const keys = await registerWith(production.idp.app, iat, {
      ...METADATA,
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: { keys: [{ kty: 'RSA', n: 'x', e: 'AQAB', d: 'private' }] },
    });
    expect(keys.body.details).toEqual([{ field: 'body.jwks', message: 'must hold public keys only (a member "d" was found)' }]);
    expect((await registerWith(production.idp.app, iat, [] as unknown as object)).body.error).toBe('invalid_client_metadata');
  });
});

describe('/oauth/register/{client_id} (RFC 7592)', () => {
  it('reads, replaces and deletes with the registration access token, and only this client’s', async () => {
    const iat = await initialAccessToken(production.idp.app);
    const first = (await registerWith(production.idp.app, iat, METADATA)).body;
    const second = (await registerWith(production.idp.app, iat, METADATA)).body;
    const uri = `/oauth/register/${first.client_id}`;
    const as = (token: string) => ({ Authorization: `Bearer ${token}` });

    const read = await request(production.idp.app).get(uri).set(as(first.registration_access_token));
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('client_secret');
    expect(read.body).not.toHaveProperty('registration_access_token');
    // Another client's registration token opens nothing here.
    expect((await request(production.idp.app).get(uri).set(as(second.registration_access_token))).status).toBe(401);

    const replaced = await request(production.idp.app)
      .put(uri)
      .set(as(first.registration_access_token))
      .send({ ...METADATA, client_id: first.client_id, client_name: 'Renamed', redirect_uris: ['https://app.example/cb', 'https://app.example/two'] });
    expect(replaced.body).toMatchObject({ client_name: 'Renamed', redirect_uris: ['https://app.example/cb', 'https://app.example/two'] });
    const switched = await request(production.idp.app)
      .put(uri)
      .set(as(first.registration_access_token))
      .send({ ...METADATA, client_id: first.client_id, token_endpoint_auth_method: 'none' });
    expect(switched.body).toMatchObject({ error: 'invalid_client_metadata' });
    const otherId = await request(production.idp.app)
      .put(uri)
      .set(as(first.registration_access_token))
      .send({ ...METADATA, client_id: second.client_id });
    expect(otherId.status).toBe(400);

    expect((await request(production.idp.app).delete(uri).set(as(first.registration_access_token))).status).toBe(204);
    expect((await request(production.idp.app).get(uri).set(as(first.registration_access_token))).status).toBe(401);
    const fresh = buildIdp();
    try {
      expect((await request(fresh.app).get('/v2/authorizations').set('Authorization', basic(first.client_id, first.client_secret))).status).toBe(401);
    } finally {
      await fresh.deps.close();
    }
  });
});
