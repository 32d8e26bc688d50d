import { describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import request from 'supertest';
import { arrange, basic, exchangeWith, pkce, REDIRECT, signIn, useIdp } from '../helpers.js';

// Pushed authorization requests (RFC 9126), through HTTP.
const suite = useIdp();
const app = () => suite.idp.app;
type Client = { client_id: string; client_secret?: string | null };

function push(client: Client, body: Record<string, string>) {
  const req = request(app()).post('/oauth/par').type('form');
  if (client.client_secret) req.set('Authorization', basic(client.client_id, client.client_secret));
  return req.send({ ...(client.client_secret ? {} : { client_id: client.client_id }), ...body });
}

function parameters(overrides: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  return {
    verifier,
    body: {
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid identity:read',
      state: 'st-par',
      nonce: 'n-par',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...overrides,
    },
  };
}

const authorize = (query: Record<string, string>) => request(app()).get('/oauth/authorize').set('Accept', 'application/json').query(query);

describe('POST /oauth/par', () => {
  it('answers a one-time request_uri; authorize with it alone runs the whole flow to tokens', async () => {
    const a = await arrange(suite.db);
    const { verifier, body } = parameters();
    const pushed = await push(a.confidential, body);
    expect(pushed.status).toBe(201);
    expect(pushed.headers['cache-control']).toBe('no-store');
    expect(pushed.body).toEqual({ request_uri: expect.stringMatching(/^urn:ietf:params:oauth:request_uri:[A-Za-z0-9]{43}$/), expires_in: 60 });

    // Parameters beside request_uri are ignored (RFC 9126 §4): this scope is not the pushed one.
    const started = await authorize({ client_id: a.confidential.client_id, request_uri: pushed.body.request_uri, scope: 'kyc:read' });
    expect(started.status).toBe(200);
    const session = await signIn(app(), a.user.email, a.user.password);
    const context = await request(app())
      .get('/oauth/authorize/context')
      .query({ authorization_id: started.body.authorization_id })
      .set('Authorization', `Bearer ${session}`);
    expect(context.body.scopes.map((scope: { id: string }) => scope.id)).toEqual(['openid', 'identity:read']);
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id });
    expect(approved.body.redirect_to).toContain('state=st-par');
    const tokens = await exchangeWith(app(), a.confidential, { code: approved.body.code, code_verifier: verifier });
    expect(tokens.status).toBe(200);

    // Once only.
    const again = await authorize({ client_id: a.confidential.client_id, request_uri: pushed.body.request_uri });
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_request_uri');
  });

  it('takes a public client by its client_id, as the token endpoint does', async () => {
    const a = await arrange(suite.db);
    const pushed = await push(a.publicClient, parameters().body);
    expect(pushed.status).toBe(201);
    expect((await authorize({ client_id: a.publicClient.client_id, request_uri: pushed.body.request_uri })).status).toBe(200);
  });

  it('a request_uri is another client’s to use only: naming it neither uses nor spends it', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const pushed = await push(a.confidential, parameters().body);
    const stolen = await authorize({ client_id: b.confidential.client_id, request_uri: pushed.body.request_uri });
    expect(stolen.body.error).toBe('invalid_request_uri');
    expect((await authorize({ client_id: a.confidential.client_id, request_uri: pushed.body.request_uri })).status).toBe(200);
  });

  it.each([
    ['a redirect_uri not registered', { redirect_uri: 'https://evil.example/cb' }, 'invalid_request'],
    ['no PKCE', { code_challenge: '' }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['a scope the client may not request', { scope: 'openid financial:bank_balance' }, 'invalid_scope'],
    ['the implicit flow', { response_type: 'token' }, 'unsupported_response_type'],
    ['a request_uri inside the push', { request_uri: 'urn:ietf:params:oauth:request_uri:abc' }, 'invalid_request'],
    ['a NUL byte in the nonce (it could never be stored)', { nonce: 'x\u0000y' }, 'invalid_request'],
  ])('refuses %s with a 400 to the client, never a redirect', async (_what, overrides, error) => {
    const a = await arrange(suite.db, { scopes: 'openid identity:read' });
    const res = await push(a.confidential, parameters(overrides).body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(error);
    expect(res.headers.location).toBeUndefined();
  });

  it('refuses a confidential client that does not authenticate', async () => {
    const a = await arrange(suite.db);
    const res = await request(app())
      .post('/oauth/par')
      .type('form')
      .send({ client_id: a.confidential.client_id, ...parameters().body });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    // A refusal is not cached either.
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('a client registered with require_pushed_authorization_requests', () => {
  it('is refused a request that was not pushed, and served one that was', async () => {
    const a = await arrange(suite.db);
    const client = await createClient(a.ctx, {
      org: a.org.id,
      name: 'PAR-only',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read',
      requirePushedAuthorization: true,
    });
    const direct = await authorize({ client_id: client.client_id, ...parameters().body });
    expect(direct.status).toBe(400);
    expect(direct.body.error_description).toContain('/oauth/par');
    const pushed = await push(client, parameters().body);
    expect((await authorize({ client_id: client.client_id, request_uri: pushed.body.request_uri })).status).toBe(200);
    expect((await request(app()).get('/.well-known/openid-configuration')).body).toMatchObject({
      pushed_authorization_request_endpoint: `${suite.idp.deps.config.issuer}/oauth/par`,
    });
  });
});
