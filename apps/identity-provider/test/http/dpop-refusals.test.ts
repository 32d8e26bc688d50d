// Every way a DPoP proof or a DPoP-bound token is refused answers JSON with its OAuth error, and at
// a protected resource a well-formed `WWW-Authenticate: DPoP` challenge (RFC 9449 §7.1): header
// values are ASCII with quotes and backslashes escaped, whatever the error description says.
import { createHash, randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, basic, exchangeWith, obtainCode, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const issuer = () => suite.idp.deps.config.issuer;

type KeyPair = { privateKey: CryptoKey; jwk: JWK };
async function newKey(): Promise<KeyPair> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

interface ProofOptions {
  htm?: string;
  htu?: string;
  iat?: number;
  jti?: string;
  ath?: string | null;
  nonce?: string;
  /** Signs with this key while the header names `key` (a forged signature). */
  signWith?: CryptoKey;
  typ?: string;
}

async function proof(key: KeyPair, options: ProofOptions & { htm: string; htu: string }): Promise<string> {
  const claims: Record<string, unknown> = { htm: options.htm, htu: options.htu, jti: options.jti ?? randomUUID() };
  if (options.ath) claims.ath = options.ath;
  if (options.nonce) claims.nonce = options.nonce;
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'ES256', typ: options.typ ?? 'dpop+jwt', jwk: key.jwk })
    .setIssuedAt(options.iat ?? Math.floor(Date.now() / 1000))
    .sign(options.signWith ?? key.privateKey);
}

const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

/** RFC 7235 challenge: a scheme, then comma-separated auth-params whose values are quoted strings, ASCII only. */
function parseChallenge(header: string | undefined): { scheme: string; params: Record<string, string> } {
  expect(header).toBeDefined();
  expect(header).toMatch(/^[\x20-\x7e]+$/);
  const match = /^([A-Za-z]+) (.*)$/.exec(header!);
  expect(match).not.toBeNull();
  const params: Record<string, string> = {};
  const param = /([a-z_]+)="((?:[^"\\]|\\.)*)"(?:, |$)/y;
  let consumed = 0;
  for (let m = param.exec(match![2]!); m; m = param.exec(match![2]!)) {
    params[m[1]!] = m[2]!.replace(/\\(.)/g, '$1');
    consumed = param.lastIndex;
  }
  expect(consumed).toBe(match![2]!.length);
  return { scheme: match![1]!, params };
}

let key: KeyPair;
let bound: string;
let unbound: string;
let client: { client_id: string; client_secret?: string | null };

beforeAll(async () => {
  key = await newKey();
  const a = await arrange(suite.db);
  client = a.confidential;
  const session = await signIn(app(), a.user.email, a.user.password);
  const first = await obtainCode(app(), a.confidential.client_id, session);
  const token = await exchangeWith(app(), a.confidential, { code: first.code, code_verifier: first.verifier }).set(
    'DPoP',
    await proof(key, { htm: 'POST', htu: `${issuer()}/oauth/token`, nonce: suite.idp.deps.dpop.nonce() }),
  );
  expect(token.status).toBe(200);
  expect(token.body.token_type).toBe('DPoP');
  bound = token.body.access_token;
  const second = await obtainCode(app(), a.confidential.client_id, session);
  unbound = (await exchangeWith(app(), a.confidential, { code: second.code, code_verifier: second.verifier })).body.access_token;
});

const RESOURCES = [
  { name: 'GET /v2/userinfo', path: '/v2/userinfo', style: 'oauth' },
  { name: 'GET /v2/presets/{preset_name}', path: '/v2/presets/age_over_18', style: 'data' },
] as const;

type Refusal = [string, string, () => Promise<{ scheme: 'DPoP' | 'Bearer'; token: string; proof?: string }>];

/** Each refusal at a resource: what is wrong, the OAuth error, the request. */
function refusals(path: string): Refusal[] {
  // Built when each test runs, once the app exists.
  const ok = (extra: Partial<ProofOptions> = {}) => proof(key, { htm: 'GET', htu: `${issuer()}${path}`, ath: ath(bound), ...extra });
  return [
    ['a bound token sent as Bearer', 'invalid_token', async () => ({ scheme: 'Bearer', token: bound })],
    ['an unbound token sent as DPoP', 'invalid_token', async () => ({ scheme: 'DPoP', token: unbound, proof: await ok({ ath: ath(unbound) }) })],
    ['no proof with a bound token', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound })],
    ['a forged signature', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ signWith: (await newKey()).privateKey }) })],
    ['a wrong typ (a quoted description)', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ typ: 'JWT' }) })],
    ['a wrong htm', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ htm: 'POST' }) })],
    ['a wrong htu', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ htu: `${issuer()}/v2/elsewhere` }) })],
    ['a stale iat', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ iat: Math.floor(Date.now() / 1000) - 3600 }) })],
    ['a wrong ath', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ ath: ath('another token') }) })],
    ['a missing ath', 'invalid_dpop_proof', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ ath: null }) })],
    [
      'a proof by another key than the bound one',
      'invalid_dpop_proof',
      async () => ({ scheme: 'DPoP', token: bound, proof: await proof(await newKey(), { htm: 'GET', htu: `${issuer()}${path}`, ath: ath(bound) }) }),
    ],
    ['a stale nonce', 'use_dpop_nonce', async () => ({ scheme: 'DPoP', token: bound, proof: await ok({ nonce: 'not-the-current-nonce' }) })],
  ];
}

describe.each(RESOURCES)('$name refusing DPoP', ({ path, style }) => {
  it.each(refusals(path))('answers %s with JSON %s and a DPoP challenge', async (_what, error, make) => {
    const sent = await make();
    const req = request(app()).get(path).set('Authorization', `${sent.scheme} ${sent.token}`);
    if (sent.proof) req.set('DPoP', sent.proof);
    const res = await req;
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    if (style === 'oauth') expect(res.body).toMatchObject({ error, error_description: expect.any(String) });
    else expect(res.body).toMatchObject({ error: 'invalid_token', error_code: 'E4042', error_subcode: error });
    const challenge = parseChallenge(res.headers['www-authenticate']);
    expect(challenge.scheme).toBe('DPoP');
    expect(challenge.params).toMatchObject({ error, algs: expect.stringContaining('ES256') });
    expect(challenge.params.error_description).toMatch(/^[A-Z].{10,}/);
    if (error === 'use_dpop_nonce') expect(res.headers['dpop-nonce']).toBe(suite.idp.deps.dpop.nonce());
  });

  it('refuses a replayed proof with JSON invalid_dpop_proof and a DPoP challenge', async () => {
    const once = await proof(key, { htm: 'GET', htu: `${issuer()}${path}`, ath: ath(bound) });
    const send = () => request(app()).get(path).set('Authorization', `DPoP ${bound}`).set('DPoP', once);
    expect((await send()).status).not.toBe(401);
    const replay = await send();
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject(style === 'oauth' ? { error: 'invalid_dpop_proof' } : { error_subcode: 'invalid_dpop_proof' });
    expect(parseChallenge(replay.headers['www-authenticate'])).toMatchObject({ scheme: 'DPoP', params: { error: 'invalid_dpop_proof' } });
  });
});

describe('POST /oauth/token refusing DPoP', () => {
  // RFC 9449 §5 and §8: the token endpoint answers RFC 6749 §5.2 errors (400 JSON, no challenge).
  const tokenRequest = async (dpop: string | undefined, who = client) => {
    const req = request(app())
      .post('/oauth/token')
      .type('form')
      .set('Authorization', basic(who.client_id, who.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: 'svcrt_unknown' });
    if (dpop !== undefined) req.set('DPoP', dpop);
    return req;
  };
  const htu = () => `${issuer()}/oauth/token`;
  const nonce = () => suite.idp.deps.dpop.nonce();

  it.each([
    ['no nonce', 'use_dpop_nonce', () => proof(key, { htm: 'POST', htu: htu() })],
    ['a stale nonce', 'use_dpop_nonce', () => proof(key, { htm: 'POST', htu: htu(), nonce: 'old' })],
    ['a forged signature', 'invalid_dpop_proof', async () => proof(key, { htm: 'POST', htu: htu(), nonce: nonce(), signWith: (await newKey()).privateKey })],
    ['a wrong typ', 'invalid_dpop_proof', () => proof(key, { htm: 'POST', htu: htu(), nonce: nonce(), typ: 'JWT' })],
    ['a wrong htm', 'invalid_dpop_proof', () => proof(key, { htm: 'GET', htu: htu(), nonce: nonce() })],
    ['a wrong htu', 'invalid_dpop_proof', () => proof(key, { htm: 'POST', htu: `${issuer()}/oauth/revoke`, nonce: nonce() })],
    ['a stale iat', 'invalid_dpop_proof', () => proof(key, { htm: 'POST', htu: htu(), nonce: nonce(), iat: Math.floor(Date.now() / 1000) - 3600 })],
  ] as const)('answers a proof with %s with JSON %s', async (_what, error, make) => {
    const res = await tokenRequest(await make());
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error, error_description: expect.any(String) });
    for (const value of Object.values(res.headers)) expect(String(value)).toMatch(/^[\x20-\x7e]*$/);
    if (error === 'use_dpop_nonce') expect(res.headers['dpop-nonce']).toBe(nonce());
  });

  it('refuses a replayed proof', async () => {
    const once = await proof(key, { htm: 'POST', htu: htu(), nonce: nonce() });
    await tokenRequest(once);
    const replay = await tokenRequest(once);
    expect(replay.status).toBe(400);
    expect(replay.body).toMatchObject({ error: 'invalid_dpop_proof', error_description: expect.stringMatching(/replay/) });
  });

  it('refuses a client that must use DPoP and sent no proof', async () => {
    const a = await arrange(suite.db);
    const strict = await createClient(a.ctx, {
      org: a.org.id,
      name: 'Strict',
      redirectUris: ['https://app.example/callback'],
      scopes: 'openid',
      requireDpop: true,
    });
    const res = await tokenRequest(undefined, strict);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_dpop_proof' });
  });
});
