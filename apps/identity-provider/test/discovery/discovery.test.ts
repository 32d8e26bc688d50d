import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { rotateSigningKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { PRESET_NAMES } from '@svc/presets';
import { SCOPES } from '@svc/schemas';
import { testDatabaseUrl, testDb, testPairwiseSecret, testSigningKeyKek } from '@svc/testkit';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { buildDeps, type AppDeps } from '../../src/deps.js';

let db: Db;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
beforeAll(() => {
  db = testDb();
  deps = buildDeps(
    loadConfig({
      DATABASE_URL: testDatabaseUrl(),
      IDP_SIGNING_KEY_KEK: testSigningKeyKek('identity-provider'),
      PAIRWISE_SECRET: testPairwiseSecret(),
      LOG_LEVEL: 'silent',
      IDP_SECRET: 'discovery-test-secret-9f8e7d6c5b4a3210ZYXWVU',
      PUBLIC_URL: 'https://id.example.com/',
      MAIL_OUTBOX: 'local',
    }),
  );
  app = createApp(deps);
});
afterAll(async () => {
  await deps.close();
  await db.$disconnect();
});

describe('GET /.well-known/openid-configuration', () => {
  it('publishes the standard metadata with the hardening clients look for', async () => {
    const res = await request(app).get('/.well-known/openid-configuration');
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toMatchObject({
      issuer: 'https://id.example.com',
      authorization_endpoint: 'https://id.example.com/oauth/authorize',
      token_endpoint: 'https://id.example.com/oauth/token',
      userinfo_endpoint: 'https://id.example.com/v2/userinfo',
      jwks_uri: 'https://id.example.com/.well-known/jwks.json',
      revocation_endpoint: 'https://id.example.com/oauth/revoke',
      introspection_endpoint: 'https://id.example.com/oauth/introspect',
      introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'private_key_jwt'],
      introspection_signing_alg_values_supported: ['RS256', 'PS256'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'client_credentials'],
      code_challenge_methods_supported: ['S256'],
      id_token_signing_alg_values_supported: ['RS256', 'PS256'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(res.body.scopes_supported).toEqual([...SCOPES, 'authorizations:read']);
  });
});

describe('GET /.well-known/svc-configuration', () => {
  it('carries every required member, all 14 scopes described and all 42 presets', async () => {
    const res = await request(app).get('/.well-known/svc-configuration');
    expect(res.status).toBe(200);
    for (const member of [
      'issuer',
      'authorization_endpoint',
      'token_endpoint',
      'revoke_endpoint',
      'userinfo_endpoint',
      'jwks_uri',
      'presets_endpoint',
      'presets_batch_endpoint',
      'credentials_endpoint',
      'authorizations_endpoint',
      'svc_configuration_endpoint',
    ]) {
      expect(typeof res.body[member]).toBe('string');
    }
    expect(res.body.scopes_catalog).toHaveLength(14);
    for (const scope of res.body.scopes_catalog)
      expect(scope).toEqual(
        expect.objectContaining({ id: expect.any(String), display_name: expect.any(String), description: expect.any(String), category: expect.any(String) }),
      );
    expect(res.body.presets_available.map((p: { name: string }) => p.name)).toEqual([...PRESET_NAMES]);
    expect(res.body.presets_available[0]).toEqual({
      name: 'service_uuid',
      scope: 'openid',
      type: 'string',
      description: expect.any(String),
      consent_text: expect.any(String),
    });
    expect(res.body).toMatchObject({ rate_limit_default: 600, rate_limit_unit: 'minute' });
  });
});

describe('GET /.well-known/jwks.json', () => {
  it('publishes RSA public keys only, one per algorithm, a new key before it signs, and the old one after', async () => {
    const first = await request(app).get('/.well-known/jwks.json');
    expect(first.status).toBe(200);
    for (const key of first.body.keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ kty: 'RSA', alg: expect.stringMatching(/^(RS256|PS256)$/), use: 'sig' });
    }
    // A key of its own for each algorithm: one RSA key is never used with two paddings.
    const signers = { RS256: await deps.signingKeys.signer('RS256'), PS256: await deps.signingKeys.signer('PS256') };
    expect(signers.RS256.kid).not.toBe(signers.PS256.kid);
    const published = (kid: string) => first.body.keys.find((k: { kid: string }) => k.kid === kid);
    expect(published(signers.RS256.kid).alg).toBe('RS256');
    expect(published(signers.PS256.kid).alg).toBe('PS256');
    const { kids: rotated } = await rotateSigningKey({ db, now: () => new Date() }, { service: 'identity-provider', activateInSeconds: 300 });
    deps.signingKeys.refresh();
    const after = await request(app).get('/.well-known/jwks.json');
    const kids = after.body.keys.map((k: { kid: string }) => k.kid);
    expect(rotated).toHaveLength(2);
    for (const kid of [...rotated, signers.RS256.kid, signers.PS256.kid]) expect(kids).toContain(kid);
    // Published, not yet signing: tokens keep coming from older keys until activation (which older
    // one is not this test's to say: other files of this package share the key table).
    expect(rotated).not.toContain((await deps.signingKeys.signer('RS256')).kid);
    expect(rotated).not.toContain((await deps.signingKeys.signer('PS256')).kid);
  });
});
