// Applications and API keys, registered and managed by an organization's own developers, never
// another's; in production a personal access token cannot make or change credentials.
import { describe, expect, it } from '@jest/globals';
import { CountBatch } from '@svc/db';
import request from 'supertest';
import { basic, buildIdp, SANDBOX_URL, useSandbox } from '../helpers.js';
import { as, CALLBACK, confidentialApp, developer } from './developers.js';

const sandbox = useSandbox();

describe('applications', () => {
  it('registers a confidential application whose secret is shown once and authenticates, rotates it, and revokes it', async () => {
    const dev = await developer(sandbox.idp.app);
    const created = await request(sandbox.idp.app).post('/v2/developer/applications').set(as(dev.token)).send(confidentialApp);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      type: 'confidential',
      token_endpoint_auth_method: 'client_secret_basic',
      redirect_uris: [CALLBACK],
      status: 'active',
    });
    expect(created.body.client_id).toMatch(/^sbx_svc_client_/);
    expect(created.body.client_secret).toMatch(/^sbx_svcs_/);
    const { client_id: clientId, client_secret: secret } = created.body;
    // The secret is never shown again.
    const read = await request(sandbox.idp.app).get(`/v2/developer/applications/${clientId}`).set(as(dev.token));
    expect(read.body).not.toHaveProperty('client_secret');
    // It authenticates the application (the change list takes client credentials).
    const changes = (s: string) => request(sandbox.idp.app).get('/v2/authorizations').set('Authorization', basic(clientId, s));
    expect((await changes(secret)).status).toBe(200);
    const rotated = await request(sandbox.idp.app).post(`/v2/developer/applications/${clientId}/rotate-secret`).set(as(dev.token));
    expect(rotated.body.client_secret).toMatch(/^sbx_svcs_/);
    // The client cache keeps a client 5 s; a fresh instance shows what every replica shows then.
    const fresh = buildIdp({ SVC_ENVIRONMENT: 'sandbox', DATABASE_URL: sandbox.idp.deps.config.DATABASE_URL, PUBLIC_URL: SANDBOX_URL });
    try {
      expect((await request(fresh.app).get('/v2/authorizations').set('Authorization', basic(clientId, secret))).status).toBe(401);
      expect((await request(fresh.app).get('/v2/authorizations').set('Authorization', basic(clientId, rotated.body.client_secret))).status).toBe(200);
      const revoked = await request(sandbox.idp.app).delete(`/v2/developer/applications/${clientId}`).set(as(dev.token));
      expect(revoked.body.status).toBe('revoked');
      const after = buildIdp({ SVC_ENVIRONMENT: 'sandbox', DATABASE_URL: sandbox.idp.deps.config.DATABASE_URL, PUBLIC_URL: SANDBOX_URL });
      try {
        expect((await request(after.app).get('/v2/authorizations').set('Authorization', basic(clientId, rotated.body.client_secret))).status).toBe(401);
      } finally {
        await after.deps.close();
      }
    } finally {
      await fresh.deps.close();
    }
  });

  it('checks metadata as strictly as the admin CLI: 400 naming each field, nothing registered', async () => {
    const dev = await developer(sandbox.idp.app);
    const register = (body: object) => request(sandbox.idp.app).post('/v2/developer/applications').set(as(dev.token)).send(body);
    const fields = async (body: object) => {
      const res = await register(body);
      expect(res.status).toBe(400);
      return res.body.details.map((d: { field: string; message: string }) => `${d.field}: ${d.message}`);
    };
    expect(await fields({ ...confidentialApp, redirect_uris: ['http://app.example/cb', 'https://ok.example/cb#frag'] })).toEqual([
      'body.redirect_uris[0]: must use https (http is allowed only for localhost)',
      'body.redirect_uris[1]: must not contain a fragment',
    ]);
    expect(await fields({ ...confidentialApp, scopes: ['openid', 'everything'] })).toEqual([expect.stringMatching(/^body\.scopes\[1\]: /)]);
    expect(await fields({ ...confidentialApp, type: 'public', token_endpoint_auth_method: 'client_secret_post' })).toEqual([
      'body.token_endpoint_auth_method: a public client has no secret or keys: none',
    ]);
    expect(await fields({ ...confidentialApp, token_endpoint_auth_method: 'private_key_jwt' })).toEqual([
      'body.jwks: is required for private_key_jwt (the client’s public keys)',
    ]);
    const privateKey = { kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: 'secret' };
    // An RSA private key without d still carries its CRT parameters.
    expect(
      await fields({ ...confidentialApp, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [{ kty: 'RSA', n: 'n', e: 'AQAB', p: 'p', q: 'q' }] } }),
    ).toEqual(['body.jwks: must hold public keys only (a member "p" was found)']);
    expect(await fields({ ...confidentialApp, token_endpoint_auth_method: 'private_key_jwt', jwks: { keys: [privateKey] } })).toEqual([
      'body.jwks: must hold public keys only (a member "d" was found)',
    ]);
    expect(await fields({ ...confidentialApp, fapi_profile: 'fapi2' })).toEqual([
      'body.fapi_profile: needs token_endpoint_auth_method private_key_jwt or self_signed_tls_client_auth',
    ]);
    expect((await request(sandbox.idp.app).get('/v2/developer/applications').set(as(dev.token))).body.items).toEqual([]);
  });

  it('registers an application under the FAPI 2.0 profile, which says so and needs PAR and DPoP', async () => {
    const dev = await developer(sandbox.idp.app);
    const { exportJWK, generateKeyPair } = await import('jose');
    const jwks = { keys: [{ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'k1', alg: 'ES256' }] };
    const res = await request(sandbox.idp.app)
      .post('/v2/developer/applications')
      .set(as(dev.token))
      .send({ ...confidentialApp, token_endpoint_auth_method: 'private_key_jwt', jwks, fapi_profile: 'fapi2' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ fapi_profile: 'fapi2', require_dpop: true, client_secret: null });
    const app = await sandbox.db.application.findUniqueOrThrow({ where: { clientId: res.body.client_id } });
    expect(app).toMatchObject({ fapiProfile: 'fapi2', requiresPushedAuthorization: true, requiresDpop: true });
  });

  it('registers a public application (PKCE alone) with no secret, and changes only what a PATCH sends', async () => {
    const dev = await developer(sandbox.idp.app);
    const created = await request(sandbox.idp.app)
      .post('/v2/developer/applications')
      .set(as(dev.token))
      .send({ ...confidentialApp, type: 'public', require_dpop: true });
    expect(created.body).toMatchObject({ type: 'public', token_endpoint_auth_method: 'none', client_secret: null, require_dpop: true });
    const patched = await request(sandbox.idp.app)
      .patch(`/v2/developer/applications/${created.body.client_id}`)
      .set(as(dev.token))
      .send({ name: 'Renamed', preset_cache_ttl_seconds: 600 });
    expect(patched.body).toMatchObject({ name: 'Renamed', preset_cache_ttl_seconds: 600, redirect_uris: [CALLBACK], require_dpop: true, type: 'public' });
    // Nothing else can be set this way: the client's id, type, organization or secret.
    const sneaky = await request(sandbox.idp.app)
      .patch(`/v2/developer/applications/${created.body.client_id}`)
      .set(as(dev.token))
      .send({ type: 'confidential', organization_id: 'x', client_secret: 'mine' });
    expect(sneaky.status).toBe(400);
    const rotate = await request(sandbox.idp.app).post(`/v2/developer/applications/${created.body.client_id}/rotate-secret`).set(as(dev.token));
    expect(rotate.status).toBe(409);
  });
});

describe('API keys', () => {
  it('are made for wallet verify and the credential issuer, shown once, listed without the key, and disabled', async () => {
    const dev = await developer(sandbox.idp.app);
    const made = await request(sandbox.idp.app)
      .post('/v2/developer/api-keys')
      .set(as(dev.token))
      .send({ name: 'staging', permissions: ['wallet:verify', 'credentials:issue'], hourly_limit: 50, burst_limit: 5 });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatch(/^sbx_svck_/);
    expect(made.body).toMatchObject({ name: 'staging', hourly_limit: 50, burst_limit: 5, status: 'active' });
    // The services that check keys count each request per hour (CountBatch, as wallet verify's and
    // the issuer's authenticator do); the list shows this hour's count, not an earlier hour's.
    const counted = new CountBatch(sandbox.db, 3600);
    for (let i = 0; i < 3; i++) counted.record(made.body.id, new Date());
    counted.record(made.body.id, new Date(Date.now() - 2 * 3_600_000));
    await counted.close();
    const listed = (await request(sandbox.idp.app).get('/v2/developer/api-keys').set(as(dev.token))).body.items;
    expect(listed).toHaveLength(1);
    expect(listed[0].requests_this_hour).toBe(3);
    expect(JSON.stringify(listed)).not.toContain(made.body.key.slice(18));
    const disabled = await request(sandbox.idp.app).post(`/v2/developer/api-keys/${made.body.id}/disable`).set(as(dev.token));
    expect(disabled.body).toMatchObject({ status: 'disabled', disabled_at: expect.any(String) });
    const bad = await request(sandbox.idp.app)
      .post('/v2/developer/api-keys')
      .set(as(dev.token))
      .send({ permissions: ['everything'], hourly_limit: 0 });
    expect(bad.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body.hourly_limit', 'body.permissions[0]']);
  });

  it('refuses limits above the platform maximum, so a tenant cannot give itself any rate it likes', async () => {
    const dev = await developer(sandbox.idp.app);
    const asked = await request(sandbox.idp.app)
      .post('/v2/developer/api-keys')
      .set(as(dev.token))
      .send({ permissions: ['wallet:verify'], hourly_limit: 10_000_000, burst_limit: 100_000 });
    expect(asked.status).toBe(400);
    expect(asked.body).toMatchObject({
      error: 'invalid_request',
      details: [
        { field: 'body.hourly_limit', message: 'must be at most 10000, the platform maximum per key' },
        { field: 'body.burst_limit', message: 'must be at most 100, the platform maximum per key' },
      ],
    });
    const atMaximum = await request(sandbox.idp.app)
      .post('/v2/developer/api-keys')
      .set(as(dev.token))
      .send({ permissions: ['wallet:verify'], hourly_limit: 10_000, burst_limit: 100 });
    expect(atMaximum.status).toBe(201);
    expect((await request(sandbox.idp.app).get('/v2/developer/api-keys').set(as(dev.token))).body.items).toHaveLength(1);
    // A key made before the maximum was lowered is listed with the limits it is held to.
    await sandbox.db.apiKey.update({ where: { id: atMaximum.body.id }, data: { hourlyLimit: 10_000_000, burstLimit: 100_000 } });
    const listed = (await request(sandbox.idp.app).get('/v2/developer/api-keys').set(as(dev.token))).body.items;
    expect(listed[0]).toMatchObject({ hourly_limit: 10_000, burst_limit: 100 });
  });

  it('lets the operator raise the platform maximum', async () => {
    const raised = buildIdp({
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: sandbox.idp.deps.config.DATABASE_URL,
      PUBLIC_URL: SANDBOX_URL,
      API_KEY_MAX_HOURLY_LIMIT: '50000',
    });
    try {
      const dev = await developer(raised.app);
      const over = await request(raised.app)
        .post('/v2/developer/api-keys')
        .set(as(dev.token))
        .send({ permissions: ['wallet:verify'], hourly_limit: 50_001 });
      expect(over.body.details).toEqual([{ field: 'body.hourly_limit', message: 'must be at most 50000, the platform maximum per key' }]);
      const made = await request(raised.app)
        .post('/v2/developer/api-keys')
        .set(as(dev.token))
        .send({ permissions: ['wallet:verify'], hourly_limit: 50_000 });
      expect(made.body).toMatchObject({ hourly_limit: 50_000, burst_limit: 10 });
    } finally {
      await raised.deps.close();
    }
  });
});

describe('credentials made with a personal access token (attack: a leaked token turning itself into credentials that outlive it)', () => {
  it('are refused in production: an application, a rotated secret, new redirect URIs, an API key take a signed-in developer', async () => {
    const open = buildIdp({ CONSOLE_SIGNUP: 'open' });
    try {
      const dev = await developer(open.app);
      const made = await request(open.app).post('/v2/developer/applications').set(as(dev.session)).send(confidentialApp);
      expect(made.status).toBe(201);
      const path = `/v2/developer/applications/${made.body.client_id}`;
      const byToken = (req: request.Test) => req.set(as(dev.token));
      for (const attempt of [
        byToken(request(open.app).post('/v2/developer/applications').send(confidentialApp)),
        byToken(request(open.app).post(`${path}/rotate-secret`)),
        byToken(
          request(open.app)
            .patch(path)
            .send({ redirect_uris: ['https://attacker.example/cb'] }),
        ),
        byToken(
          request(open.app)
            .post('/v2/developer/api-keys')
            .send({ permissions: ['wallet:verify'] }),
        ),
      ]) {
        const res = await attempt;
        expect([res.status, res.body.error]).toEqual([401, 'login_required']);
      }
      // Settings that open nothing, and reading, stay open to the token.
      expect((await byToken(request(open.app).patch(path).send({ name: 'Renamed' }))).status).toBe(200);
      expect((await byToken(request(open.app).get('/v2/developer/applications'))).body.items).toHaveLength(1);
    } finally {
      await open.deps.close();
    }
  });

  it('are made in the sandbox, whose credentials never open production (CI registers its test apps)', async () => {
    const dev = await developer(sandbox.idp.app);
    expect((await request(sandbox.idp.app).post('/v2/developer/applications').set(as(dev.token)).send(confidentialApp)).status).toBe(201);
  });
});
