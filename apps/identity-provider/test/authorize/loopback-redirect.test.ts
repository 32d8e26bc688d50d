import { describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import request from 'supertest';
import { arrange, pkce, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

// One client for the whole file: arranging users hashes passwords, which is slow.
let shared: ReturnType<typeof makeNativeClient> | undefined;
const nativeClient = () => {
  shared ??= makeNativeClient();
  return shared;
};

async function makeNativeClient() {
  const a = await arrange(suite.db);
  const native = await createClient(a.ctx, {
    org: a.org.id,
    name: 'Native App',
    redirectUris: ['http://127.0.0.1/callback', 'http://[::1]/cb', 'http://localhost/cb'],
    scopes: 'openid',
    public: true,
  });
  return { a, clientId: native.client_id };
}

const authorize = (clientId: string, redirectUri: string, challenge = pkce().challenge) =>
  request(app()).get('/oauth/authorize').query({
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });

describe('GET /oauth/authorize with a native app’s loopback redirect URI (RFC 8252 §7.3)', () => {
  it.each(['http://127.0.0.1:53127/callback', 'http://127.0.0.1:80/callback', 'http://[::1]:4321/cb'])(
    'accepts any port on a registered loopback IP: %s',
    async (uri) => {
      const { clientId } = await nativeClient();
      expect((await authorize(clientId, uri)).status).toBe(200);
    },
  );

  it.each([
    'http://localhost:5000/cb',
    'http://127.0.0.1:53127/other',
    'http://127.0.0.1:53127/callback?x=1',
    'http://127.0.0.1:53127/callback#f',
    'https://127.0.0.1:53127/callback',
    'http://127.0.0.2:53127/callback',
    'http://127.0.0.1:0/callback',
    'http://127.0.0.1:99999/callback',
    'http://127.0.0.1:53127@evil.example/callback',
  ])('refuses everything else but the port: %s', async (uri) => {
    const { clientId } = await nativeClient();
    const res = await authorize(clientId, uri);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  it('exchanges the code only with the same port the authorization used', async () => {
    const { a, clientId } = await nativeClient();
    const { verifier, challenge } = pkce();
    const redirect = 'http://127.0.0.1:61000/callback';
    const started = await authorize(clientId, redirect, challenge);
    const session = await signIn(app(), a.user.email, a.user.password);
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(approved.status).toBe(200);
    expect(new URL(approved.body.redirect_to).port).toBe('61000');
    const exchange = (redirect_uri: string) =>
      request(app())
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'authorization_code', client_id: clientId, code: approved.body.code, redirect_uri, code_verifier: verifier });
    expect((await exchange('http://127.0.0.1:61001/callback')).body.error).toBe('invalid_grant');
    expect((await exchange(redirect)).status).toBe(200);
  });
});
