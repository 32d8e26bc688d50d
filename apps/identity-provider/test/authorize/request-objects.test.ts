import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, pkce, REDIRECT, signIn, useIdp } from '../helpers.js';

// Signed request objects (RFC 9101), by value at /oauth/authorize and at PAR (RFC 9126 §3).
const suite = useIdp();
const app = () => suite.idp.app;
const issuer = () => suite.idp.deps.config.issuer;

type Keyed = { client_id: string; privateKey: CryptoKey; arranged: Awaited<ReturnType<typeof arrange>> };
let keyed: Keyed;
let stranger: CryptoKey;

beforeAll(async () => {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  stranger = (await generateKeyPair('ES256')).privateKey;
  const arranged = await arrange(suite.db);
  const client = await createClient(arranged.ctx, {
    org: arranged.org.id,
    name: 'Signing App',
    redirectUris: [REDIRECT],
    scopes: 'openid identity:read kyc:read',
    jwks: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'req-1', alg: 'ES256' }] }),
  });
  keyed = { client_id: client.client_id, privateKey, arranged };
});

function claims(overrides: Record<string, unknown> = {}) {
  return {
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid identity:read',
    state: 'st-signed',
    nonce: 'n-signed',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

async function requestObject(
  payload: JWTPayload = claims(),
  options: { key?: CryptoKey; aud?: string | string[]; iss?: string; exp?: number; nbf?: number; typ?: string | null } = {},
) {
  const now = Math.floor(Date.now() / 1000);
  const jwt = new SignJWT({ ...payload, jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'req-1', ...(options.typ === null ? {} : { typ: options.typ ?? 'oauth-authz-req+jwt' }) })
    .setIssuer(options.iss ?? keyed.client_id)
    .setAudience(options.aud ?? issuer())
    .setIssuedAt()
    .setExpirationTime(options.exp ?? now + 300);
  if (options.nbf !== undefined) jwt.setNotBefore(options.nbf);
  return jwt.sign(options.key ?? keyed.privateKey);
}

const authorize = (query: Record<string, string>) => request(app()).get('/oauth/authorize').set('Accept', 'application/json').query(query);
const assertion = () =>
  new SignJWT({ jti: randomUUID() })
    .setProtectedHeader({ alg: 'ES256', kid: 'req-1' })
    .setIssuer(keyed.client_id)
    .setSubject(keyed.client_id)
    .setAudience(issuer())
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(keyed.privateKey);
const push = async (body: Record<string, string>) =>
  request(app())
    .post('/oauth/par')
    .type('form')
    .send({
      client_id: keyed.client_id,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await assertion(),
      ...body,
    });

/** What the signed-in user is asked, and where approving sends them: the request as the server took it. */
async function asked(authorizationId: string) {
  const { user } = keyed.arranged;
  const session = await signIn(app(), user.email, user.password);
  const context = await request(app()).get('/oauth/authorize/context').query({ authorization_id: authorizationId }).set('Authorization', `Bearer ${session}`);
  const approved = await request(app()).post('/oauth/authorize/approve').set('Authorization', `Bearer ${session}`).send({ authorization_id: authorizationId });
  return { scopes: context.body.scopes.map((s: { id: string }) => s.id), redirectTo: approved.body.redirect_to as string };
}

describe('a request object by value at /oauth/authorize', () => {
  it('is the request: parameters outside it are ignored', async () => {
    const res = await authorize({ client_id: keyed.client_id, request: await requestObject(), scope: 'kyc:read', state: 'forged' });
    expect(res.status).toBe(200);
    const seen = await asked(res.body.authorization_id);
    expect(seen.scopes).toEqual(['openid', 'identity:read']);
    expect(new URL(seen.redirectTo).searchParams.get('state')).toBe('st-signed');
  });

  it('that does not verify is shown as invalid_request_object, never redirected', async () => {
    const res = await authorize({ client_id: keyed.client_id, request: await requestObject(claims(), { key: stranger }) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request_object');
    expect(res.headers.location).toBeUndefined();
  });
});

describe('a request object at PAR', () => {
  it('is the pushed request: the form’s other parameters are ignored', async () => {
    const pushed = await push({ request: await requestObject(claims({ scope: 'openid kyc:read' })), scope: 'openid identity:read' });
    expect(pushed.status).toBe(201);
    const started = await authorize({ client_id: keyed.client_id, request_uri: pushed.body.request_uri });
    expect(started.status).toBe(200);
    expect((await asked(started.body.authorization_id)).scopes).toEqual(['openid', 'kyc:read']);
  });

  const now = () => Math.floor(Date.now() / 1000);
  it.each<[string, () => Promise<string>, RegExp]>([
    ['signed by a key that is not the client’s', () => requestObject(claims(), { key: stranger }), /signature/],
    [
      'unsigned (alg none)',
      async () =>
        `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ ...claims(), iss: keyed.client_id, aud: issuer(), exp: now() + 60 })).toString('base64url')}.`,
      /./,
    ],
    ['for another audience (the token endpoint)', () => requestObject(claims(), { aud: `${issuer()}/oauth/token` }), /aud/],
    ['for several audiences at once', () => requestObject(claims(), { aud: [issuer(), 'https://other.example'] }), /one string/],
    ['made by another client', () => requestObject(claims(), { iss: 'svc_client_someone_else' }), /iss/],
    ['expired', () => requestObject(claims(), { exp: now() - 120 }), /exp/],
    ['valid for more than an hour', () => requestObject(claims(), { exp: now() + 7200 }), /exp must be at most 3600/],
    ['made more than an hour ago (nbf)', () => requestObject(claims(), { nbf: now() - 7200 }), /nbf/],
    ['of another type', () => requestObject(claims(), { typ: 'JWT+other' }), /typ/],
    ['without a type (RFC 9101 §10.8: explicitly typed only)', () => requestObject(claims(), { typ: null }), /typ/],
    ['with a control character in a claim', () => requestObject(claims({ state: 'a\u0000b' })), /state/],
    ['naming another client_id inside', () => requestObject(claims({ client_id: 'svc_client_someone_else' })), /client_id/],
    ['with a claim of the wrong type', () => requestObject(claims({ scope: 42 })), /scope/],
  ])('%s is refused with invalid_request_object', async (_what, make, reason) => {
    const res = await push({ request: await make() });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request_object');
    expect(res.body.error_description).toMatch(reason);
  });

  it('from a client without registered keys is refused: there is nothing to verify it with', async () => {
    const a = await arrange(suite.db);
    const res = await request(app())
      .post('/oauth/par')
      .type('form')
      .auth(a.confidential.client_id, a.confidential.client_secret!)
      .send({ request: await requestObject(claims(), { iss: a.confidential.client_id }) });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request_object', error_description: expect.stringContaining('no registered keys') });
  });

  it('never passes as the client’s assertion, though signed alike: a request object seen in a browser is no login', async () => {
    // The attack: a request object carrying sub and jti, taken from a front-channel URL, sent as client_assertion.
    const stolen = await requestObject(claims({ sub: keyed.client_id }));
    const started = await authorize({ client_id: keyed.client_id, request: stolen });
    expect(started.status).toBe(200);
    const res = await request(app()).post('/oauth/token').type('form').send({
      grant_type: 'client_credentials',
      client_id: keyed.client_id,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: stolen,
    });
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_client');
    expect(res.body.access_token).toBeUndefined();
  });

  it('whose redirect_uri is not registered is refused like any request', async () => {
    const res = await push({ request: await requestObject(claims({ redirect_uri: 'https://evil.example/cb' })) });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });
});
