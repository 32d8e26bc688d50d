import { describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const ISSUER = 'https://id.example.com';

// One client and session for the file (arranging users hashes passwords, which is slow); a fresh code per test.
let shared: ReturnType<typeof keyedClient> | undefined;

async function keyedClient() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'aud-1', alg: 'ES256' };
  const a = await arrange(suite.db);
  const keyed = await createClient(a.ctx, {
    org: a.org.id,
    name: 'Audience App',
    redirectUris: [REDIRECT],
    scopes: 'openid identity:read',
    jwks: JSON.stringify({ keys: [jwk] }),
  });
  const session = await signIn(suite.idp.app, a.user.email, a.user.password);
  return { keyed, session, privateKey };
}

/** A confidential client that authenticates with private_key_jwt, and a fresh code of its user. */
async function keyedClientWithCode() {
  shared ??= keyedClient();
  const { keyed, session, privateKey } = await shared;
  const { code, verifier } = await obtainCode(suite.idp.app, keyed.client_id, session, { scope: 'openid identity:read' });
  const assertion = (aud: string | string[]) =>
    new SignJWT({ jti: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'ES256', kid: 'aud-1' })
      .setIssuer(keyed.client_id)
      .setSubject(keyed.client_id)
      .setAudience(aud)
      .setIssuedAt()
      .setExpirationTime('2m')
      .sign(privateKey);
  const exchange = async (aud: string | string[]) =>
    request(suite.idp.app)
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: await assertion(aud),
      });
  return { exchange };
}

describe('POST /oauth/token with private_key_jwt: the assertion audience', () => {
  // FAPI 2.0 and draft-ietf-oauth-rfc7523bis: only the issuer identifier, as one string, so an
  // assertion made for another server (or for several) can never be replayed here.
  it.each([
    ['the token endpoint URL', `${ISSUER}/oauth/token`],
    ['an array holding the issuer and another audience', [ISSUER, 'https://other.example']],
    ['an array holding only the issuer', [ISSUER]],
  ])('refuses aud = %s with 401 invalid_client', async (_what, aud) => {
    const { exchange } = await keyedClientWithCode();
    const res = await exchange(aud);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.body.error_description).toMatch(/aud/);
  });

  it('accepts aud = the issuer identifier as one string', async () => {
    const { exchange } = await keyedClientWithCode();
    const res = await exchange(ISSUER);
    expect(res.status).toBe(200);
    expect(res.body.access_token).toEqual(expect.any(String));
  });
});
