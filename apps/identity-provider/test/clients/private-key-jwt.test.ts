import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

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
