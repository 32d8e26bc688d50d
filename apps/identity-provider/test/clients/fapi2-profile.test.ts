import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { uniqueNamespace } from '@svc/testkit';
import { calculateJwkThumbprint, createLocalJWKSet, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK, jwtVerify, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, basic, buildIdp, pkce, REDIRECT, signIn, useIdp } from '../helpers.js';

// A client under the FAPI 2.0 Security Profile ("fapi_profile": "fapi2"): the whole flow it may
// use, and a refusal for each requirement the profile adds (docs/identity-provider.md, FAPI 2.0).
const suite = useIdp();
const app = () => suite.idp.app;
const issuer = () => suite.idp.deps.config.issuer;
type App = typeof suite.idp.app;

let fapi: { client_id: string; arranged: Awaited<ReturnType<typeof arrange>> };
let es: CryptoKey;
let rsa: CryptoKey;
let dpop: { privateKey: CryptoKey; jwk: JWK };
let rsaDpop: { privateKey: CryptoKey; jwk: JWK };

beforeAll(async () => {
  const esPair = await generateKeyPair('ES256');
  const rsaPair = await generateKeyPair('RS256');
  es = esPair.privateKey;
  rsa = rsaPair.privateKey;
  const dpopPair = await generateKeyPair('ES256');
  dpop = { privateKey: dpopPair.privateKey, jwk: await exportJWK(dpopPair.publicKey) };
  const rsaDpopPair = await generateKeyPair('RS256');
  rsaDpop = { privateKey: rsaDpopPair.privateKey, jwk: await exportJWK(rsaDpopPair.publicKey) };
  const arranged = await arrange(suite.db);
  const client = await createClient(arranged.ctx, {
    org: arranged.org.id,
    name: 'Bank App',
    redirectUris: [REDIRECT],
    scopes: 'openid identity:read',
    fapiProfile: 'fapi2',
    jwks: JSON.stringify({
      keys: [
        { ...(await exportJWK(esPair.publicKey)), kid: 'es', alg: 'ES256' },
        { ...(await exportJWK(rsaPair.publicKey)), kid: 'rsa', alg: 'RS256' },
      ],
    }),
  });
  fapi = { client_id: client.client_id, arranged };
});

const sign = (claims: object, key: 'es' | 'rsa', header: Record<string, string> = {}) =>
  new SignJWT({ ...claims })
    .setProtectedHeader({ alg: key === 'es' ? 'ES256' : 'RS256', kid: key, ...header })
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(key === 'es' ? es : rsa);
const assertion = (key: 'es' | 'rsa' = 'es', aud = issuer()) => sign({ iss: fapi.client_id, sub: fapi.client_id, aud, jti: randomUUID() }, key);
const authenticated = async (key: 'es' | 'rsa' = 'es', aud?: string) => ({
  client_id: fapi.client_id,
  client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
  client_assertion: await assertion(key, aud),
});
const proof = (target: App, path: string, key = dpop) =>
  new SignJWT({ htm: 'POST', htu: `${issuer()}${path}`, jti: randomUUID(), nonce: (target === app() ? suite.idp.deps : laterDeps!).dpop.nonce() })
    .setProtectedHeader({ alg: key.jwk.kty === 'EC' ? 'ES256' : 'RS256', typ: 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt()
    .sign(key.privateKey);
let laterDeps: ReturnType<typeof buildIdp>['deps'] | undefined;

/**
 * Pushes a request, authorizes with its request_uri and approves it: the code and its verifier.
 * `binding`: a DPoP proof sent with the pushed request (its key), and a dpop_jkt among the parameters.
 */
async function codeFor(requestKey: 'es' | 'rsa' = 'es', binding: { proofKey?: typeof dpop; dpopJkt?: string } = {}) {
  const { verifier, challenge } = pkce();
  const parameters = {
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid identity:read',
    state: 'st',
    nonce: 'nn',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...(binding.dpopJkt ? { dpop_jkt: binding.dpopJkt } : {}),
  };
  const requestObject = await sign({ ...parameters, iss: fapi.client_id, aud: issuer() }, requestKey, { typ: 'oauth-authz-req+jwt' });
  const par = request(app()).post('/oauth/par').type('form');
  if (binding.proofKey) par.set('DPoP', await proof(app(), '/oauth/par', binding.proofKey));
  const pushed = await par.send({ ...(await authenticated()), request: requestObject });
  if (pushed.status !== 201) return { pushed, verifier, code: '' };
  const started = await request(app())
    .get('/oauth/authorize')
    .set('Accept', 'application/json')
    .query({ client_id: fapi.client_id, request_uri: pushed.body.request_uri });
  const session = await signIn(app(), fapi.arranged.user.email, fapi.arranged.user.password);
  const approved = await request(app())
    .post('/oauth/authorize/approve')
    .set('Authorization', `Bearer ${session}`)
    .send({ authorization_id: started.body.authorization_id });
  return { pushed, verifier, code: approved.body.code as string, redirectTo: approved.body.redirect_to as string };
}

const exchange = async (code: string, verifier: string, options: { target?: App; dpopProof?: string | null; auth?: Record<string, string> } = {}) => {
  const target = options.target ?? app();
  const req = request(target).post('/oauth/token').type('form');
  const dpopProof = options.dpopProof === undefined ? await proof(target, '/oauth/token') : options.dpopProof;
  if (dpopProof) req.set('DPoP', dpopProof);
  return req.send({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, ...(options.auth ?? (await authenticated())) });
};

describe('a fapi2 client', () => {
  it('gets through PAR + JAR + private_key_jwt + DPoP, with PS256 for what the server signs and iss in the response', async () => {
    const { code, verifier, redirectTo } = await codeFor();
    expect(new URL(redirectTo!).searchParams.get('iss')).toBe(issuer());
    const tokens = await exchange(code, verifier);
    expect(tokens.status).toBe(200);
    expect(tokens.body.token_type).toBe('DPoP');
    const jwks = createLocalJWKSet((await request(app()).get('/.well-known/jwks.json')).body);
    for (const jwt of [tokens.body.id_token, tokens.body.access_token]) {
      expect(decodeProtectedHeader(jwt).alg).toBe('PS256');
      await jwtVerify(jwt, jwks, { issuer: issuer(), algorithms: ['PS256'] });
    }
    const introspected = await request(app())
      .post('/oauth/introspect')
      .type('form')
      .set('Accept', 'application/token-introspection+jwt')
      .send({ token: tokens.body.access_token, ...(await authenticated()) });
    expect(decodeProtectedHeader(introspected.text).alg).toBe('PS256');
    expect((await jwtVerify(introspected.text, jwks, { audience: fapi.client_id })).payload.token_introspection).toMatchObject({ active: true });
  });

  it('has its code bound to the DPoP key of its pushed request, or the one dpop_jkt names (RFC 9449 §10)', async () => {
    const otherPair = await generateKeyPair('ES256');
    const other = { privateKey: otherPair.privateKey, jwk: await exportJWK(otherPair.publicKey) };
    const thumbprint = (key: typeof dpop) => calculateJwkThumbprint(key.jwk, 'sha256');
    // Bound by the proof the pushed request carried: a stolen code is useless with another key.
    const byProof = await codeFor('es', { proofKey: dpop });
    expect(byProof.pushed.status).toBe(201);
    const stolen = await exchange(byProof.code, byProof.verifier, { dpopProof: await proof(app(), '/oauth/token', other) });
    expect(stolen.body).toMatchObject({ error: 'invalid_grant', error_description: expect.stringContaining('bound to a DPoP key') });
    expect((await exchange(byProof.code, byProof.verifier)).status).toBe(200);
    // Bound by dpop_jkt alone.
    const byJkt = await codeFor('es', { dpopJkt: await thumbprint(other) });
    expect((await exchange(byJkt.code, byJkt.verifier)).body.error).toBe('invalid_grant');
    expect((await exchange(byJkt.code, byJkt.verifier, { dpopProof: await proof(app(), '/oauth/token', other) })).status).toBe(200);
    // Both, naming different keys: refused when pushed.
    const mismatch = await codeFor('es', { proofKey: dpop, dpopJkt: await thumbprint(other) });
    expect(mismatch.pushed.status).toBe(400);
    expect(mismatch.pushed.body.error).toBe('invalid_dpop_proof');
    // Not a thumbprint.
    const malformed = await codeFor('es', { dpopJkt: 'not-a-thumbprint' });
    expect(malformed.pushed.status).toBe(400);
    expect(malformed.pushed.body.error_description).toContain('dpop_jkt');
  });

  it('may not skip PAR (§5.3.2.2)', async () => {
    const res = await request(app()).get('/oauth/authorize').set('Accept', 'application/json').query({
      client_id: fapi.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toContain('/oauth/par');
  });

  it('may not authenticate with a secret (§5.3.2.1: private_key_jwt only)', async () => {
    const res = await request(app()).post('/oauth/par').type('form').set('Authorization', basic(fapi.client_id, 'svcs_guess')).send({ redirect_uri: REDIRECT });
    expect(res.status).toBe(401);
    expect(res.body.error_description).toContain('private_key_jwt');
  });

  it('may not sign with RS256: not its assertions, request objects or DPoP proofs (§5.4.1)', async () => {
    const withRsa = await request(app())
      .post('/oauth/par')
      .type('form')
      .send({ ...(await authenticated('rsa')), redirect_uri: REDIRECT });
    expect(withRsa.status).toBe(401);
    const { pushed } = await codeFor('rsa');
    expect(pushed.status).toBe(400);
    expect(pushed.body.error).toBe('invalid_request_object');
    const { code, verifier } = await codeFor();
    const rsaProof = await exchange(code, verifier, { dpopProof: await proof(app(), '/oauth/token', rsaDpop) });
    expect(rsaProof.body.error).toBe('invalid_dpop_proof');
  });

  it('may not use RS256 DPoP proofs at the resources either, even with the RSA key its token is bound to (§5.4.1)', async () => {
    const { privateKey } = await generateKeyPair('PS256', { extractable: true });
    const full = await exportJWK(privateKey);
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...jwk } = full;
    const [ps, rs] = await Promise.all([importJWK({ ...full, alg: 'PS256' }, 'PS256'), importJWK({ ...full, alg: 'RS256' }, 'RS256')]);
    const proofWith = (alg: 'PS256' | 'RS256', htm: string, path: string, extra: object = {}) =>
      new SignJWT({ htm, htu: `${issuer()}${path}`, jti: randomUUID(), ...extra })
        .setProtectedHeader({ alg, typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign((alg === 'PS256' ? ps : rs) as CryptoKey);
    const { code, verifier } = await codeFor();
    const tokens = await exchange(code, verifier, { dpopProof: await proofWith('PS256', 'POST', '/oauth/token', { nonce: suite.idp.deps.dpop.nonce() }) });
    expect(tokens.body.token_type).toBe('DPoP');
    const ath = createHash('sha256').update(tokens.body.access_token).digest('base64url');
    const userinfo = async (alg: 'PS256' | 'RS256') =>
      request(app())
        .get('/v2/userinfo')
        .set('Authorization', `DPoP ${tokens.body.access_token}`)
        .set('DPoP', await proofWith(alg, 'GET', '/v2/userinfo', { ath }));
    expect((await userinfo('RS256')).status).toBe(401);
    expect((await userinfo('PS256')).status).toBe(200);
  });

  it('needs sender-constrained tokens: no DPoP proof, no tokens (§5.3.2.1)', async () => {
    const { code, verifier } = await codeFor();
    const res = await exchange(code, verifier, { dpopProof: null });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_dpop_proof');
  });

  it('has codes of at most 60 seconds (§5.3.2.1)', async () => {
    const { code, verifier } = await codeFor();
    const later = buildIdp({ REDIS_KEY_PREFIX: uniqueNamespace('fapi-later') }, { now: () => new Date(Date.now() + 61_000) });
    laterDeps = later.deps;
    try {
      const res = await exchange(code, verifier, { target: later.app });
      expect(res.body).toMatchObject({ error: 'invalid_grant', error_description: 'The authorization code has expired' });
    } finally {
      await later.deps.close();
    }
  });

  it('has assertions accepted only for the issuer as one string (§5.3.2.1)', async () => {
    const res = await request(app())
      .post('/oauth/par')
      .type('form')
      .send({ ...(await authenticated('es', `${issuer()}/oauth/token`)), redirect_uri: REDIRECT });
    expect(res.status).toBe(401);
  });
});

describe('registering a fapi2 client (RFC 7591)', () => {
  const iat = async () => {
    const developer = await signIn(app(), fapi.arranged.user.email, fapi.arranged.user.password);
    return (await request(app()).post('/v2/developer/initial-access-tokens').set('Authorization', `Bearer ${developer}`).send({})).body.token as string;
  };
  const register = async (metadata: object) =>
    request(app())
      .post('/oauth/register')
      .set('Authorization', `Bearer ${await iat()}`)
      .send(metadata);
  const jwks = async () => ({ keys: [{ ...(await exportJWK((await generateKeyPair('ES256')).publicKey)), kid: 'k', alg: 'ES256' }] });

  it('says what the profile implies: PAR, DPoP and PS256', async () => {
    const res = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt', jwks: await jwks(), fapi_profile: 'fapi2' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      fapi_profile: 'fapi2',
      require_pushed_authorization_requests: true,
      dpop_bound_access_tokens: true,
      id_token_signed_response_alg: 'PS256',
      introspection_signed_response_alg: 'PS256',
    });
  });

  it('refuses a secret, or anything weaker than the profile', async () => {
    const secret = await register({ redirect_uris: [REDIRECT], fapi_profile: 'fapi2' });
    expect(secret.body.error).toBe('invalid_client_metadata');
    expect(secret.body.details.map((d: { field: string }) => d.field)).toContain('body.token_endpoint_auth_method');
    const weaker = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'private_key_jwt',
      jwks: await jwks(),
      fapi_profile: 'fapi2',
      dpop_bound_access_tokens: false,
      id_token_signed_response_alg: 'RS256',
    });
    expect(weaker.body.details.map((d: { field: string }) => d.field)).toEqual(['body.dpop_bound_access_tokens', 'body.id_token_signed_response_alg']);
  });
});
