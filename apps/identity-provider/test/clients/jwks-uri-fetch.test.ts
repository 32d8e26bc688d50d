import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, buildIdp, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const ISSUER = 'https://id.example.com';

// A client's key set, served on this machine: an internal address as far as the provider knows.
let server: Server;
let fetched = 0;
let keys: Awaited<ReturnType<typeof generateKeyPair>>;
beforeAll(async () => {
  keys = await generateKeyPair('ES256');
  const body = JSON.stringify({ keys: [{ ...(await exportJWK(keys.publicKey)), kid: 'ssrf-1', alg: 'ES256' }] });
  server = createServer((_req, res) => {
    fetched += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** Exchanges a fresh code as a client whose keys are at `host` (this machine), with private_key_jwt. */
async function exchangeWithKeysAt(app: ReturnType<typeof buildIdp>['app'], host: string) {
  const a = await arrange(suite.db);
  const { port } = server.address() as AddressInfo;
  const keyed = await createClient(a.ctx, {
    org: a.org.id,
    name: 'Remote Keys App',
    redirectUris: [REDIRECT],
    scopes: 'openid',
    jwksUri: `http://${host}:${port}/jwks.json`,
  });
  const session = await signIn(app, a.user.email, a.user.password);
  const { code, verifier } = await obtainCode(app, keyed.client_id, session, { scope: 'openid' });
  const assertion = await new SignJWT({ jti: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'ssrf-1' })
    .setIssuer(keyed.client_id)
    .setSubject(keyed.client_id)
    .setAudience(ISSUER)
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(keys.privateKey);
  return request(app).post('/oauth/token').type('form').send({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
    client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
    client_assertion: assertion,
  });
}

describe('POST /oauth/token with keys at a client’s jwks_uri', () => {
  it.each(['127.0.0.1', 'localhost'])('never fetches them from an internal address (%s), checked on the resolved address', async (host) => {
    const before = fetched;
    const res = await exchangeWithKeysAt(suite.idp.app, host);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.body.error_description).toMatch(/jwks_uri could not be fetched.*(private|internal)/);
    // The address a name resolved to is the server's to know, not the caller's.
    if (host === 'localhost') expect(res.body.error_description).not.toMatch(/127\.0\.0\.1|::1/);
    expect(fetched).toBe(before);
  });

  it('fetches them there when JWKS_URI_ALLOW_PRIVATE is set (development)', async () => {
    const dev = buildIdp({ JWKS_URI_ALLOW_PRIVATE: 'true' });
    try {
      const before = fetched;
      const res = await exchangeWithKeysAt(dev.app, '127.0.0.1');
      expect(res.status).toBe(200);
      expect(fetched).toBe(before + 1);
    } finally {
      await dev.deps.close();
    }
  });
});
