// HAIP 1.0 at the identity provider: under WALLET_ATTESTATION_REQUIRED a wallet asks for
// credentials only by a pushed request with a wallet attestation (made by @openid4vc/oauth2, a
// library this project did not write), and any attestation presented at PAR or the token endpoint
// is checked: the provider's signature, its expiry, the PoP for this server, its jti used once,
// the client_id.
import { generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientAuthenticationClientAttestationJwt, createClientAttestationJwt } from '@openid4vc/oauth2';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import request from 'supertest';
import { buildIdp, pkce, REDIRECT, signIn } from '../helpers.js';

const PROVIDER = 'https://wallet-provider.example';
const provider = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const providerJwk = { ...(provider.publicKey.export({ format: 'jwk' }) as JWK), kid: 'p-1' };
const DETAILS = JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt' }]);
const ISSUER = 'https://issuer.example';
/** Expired an hour ago: past any allowance for the wallet's clock. */
const anHourAgo = () => new Date(Date.now() - 3600_000);

let db: Db;
let idp: ReturnType<typeof buildIdp>;
let walletId: string;
const person = { email: uniqueEmail('wallet-holder'), password: 'correct horse battery' };

beforeAll(async () => {
  db = testDb();
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('wallet-owner'), password: 'correct horse battery' });
  await createUser(ctx, person);
  const org = await createOrg(ctx, { name: 'Wallets', ownerEmail: owner.email });
  walletId = (await createClient(ctx, { org: org.id, name: 'Wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read', public: true })).client_id;
  const issuerClient = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: [REDIRECT], scopes: 'openid' });
  idp = buildIdp({
    CREDENTIAL_ISSUER_URL: ISSUER,
    CREDENTIAL_ISSUER_CLIENT_ID: issuerClient.client_id,
    WALLET_PROVIDERS: JSON.stringify([{ name: PROVIDER, keys: [providerJwk] }]),
    WALLET_ATTESTATION_REQUIRED: 'true',
    REDIS_KEY_PREFIX: uniqueNamespace('wallet-attestation'),
  });
});
afterAll(async () => {
  await idp?.deps.close();
  await db?.$disconnect();
});

interface Presented {
  /** The client the attestation names (its sub). */
  clientId?: string;
  /** The key the attestation is signed with: the provider's, or a forger's. */
  signWith?: KeyObject;
  /** When the attestation ends. */
  expiresAt?: Date;
  /** The server the PoP is made for (its aud): this identity provider, unless another. */
  audience?: string;
}

/** The headers the wallet library sets for a request to the identity provider (or, by `audience`, to another server). */
async function attestationHeaders({ clientId = walletId, signWith = provider.privateKey, expiresAt, audience }: Presented = {}) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const instanceJwk = await exportJWK(publicKey);
  const attestation = await createClientAttestationJwt({
    issuer: PROVIDER,
    clientId,
    confirmation: { jwk: instanceJwk as never },
    ...(expiresAt ? { issuedAt: new Date(expiresAt.getTime() - 3600_000) } : {}),
    expiresAt: expiresAt ?? new Date(Date.now() + 3600_000),
    signer: { method: 'jwk', alg: 'ES256', publicJwk: providerJwk as never },
    callbacks: {
      signJwt: async (_s: unknown, { header, payload }: { header: object; payload: object }) => ({
        jwt: await new SignJWT(payload as never).setProtectedHeader({ ...header, kid: providerJwk.kid } as never).sign(signWith),
        signerJwk: providerJwk as never,
      }),
    } as never,
  });
  const headers = new Headers();
  await clientAuthenticationClientAttestationJwt({
    clientAttestationJwt: attestation,
    callbacks: {
      generateRandom: (n: number) => randomBytes(n),
      signJwt: async (_s: unknown, { header, payload }: { header: object; payload: object }) => ({
        jwt: await new SignJWT(payload as never).setProtectedHeader(header as never).sign(privateKey),
        signerJwk: instanceJwk as never,
      }),
    } as never,
  })({ headers, authorizationServerMetadata: { issuer: audience ?? idp.deps.config.issuer } } as never);
  return { 'OAuth-Client-Attestation': headers.get('OAuth-Client-Attestation')!, 'OAuth-Client-Attestation-PoP': headers.get('OAuth-Client-Attestation-PoP')! };
}

/** A pushed request for credentials; `instead` replaces how it asks (by scope, or for data alone). */
const par = (headers: Record<string, string>, instead?: Record<string, string>, challenge = pkce().challenge) =>
  request(idp.app)
    .post('/oauth/par')
    .type('form')
    .set(headers)
    .send({
      client_id: walletId,
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      ...(instead ?? { authorization_details: DETAILS }),
    });

/**
 * The wallet's attested pushed request, approved by the person: a code the wallet may exchange, and
 * its verifier. `instead`: how it asks, when not for the credential of DETAILS.
 */
async function approvedCode(instead?: Record<string, string>) {
  const { verifier, challenge } = pkce();
  const pushed = await par(await attestationHeaders(), instead, challenge);
  const started = await request(idp.app)
    .get('/oauth/authorize')
    .set('Accept', 'application/json')
    .query({ client_id: walletId, request_uri: pushed.body.request_uri });
  const session = await signIn(idp.app, person.email, person.password);
  const approved = await request(idp.app)
    .post('/oauth/authorize/approve')
    .set('Authorization', `Bearer ${session}`)
    .send({ authorization_id: started.body.authorization_id });
  expect(approved.status).toBe(200);
  return { code: approved.body.code as string, verifier, authorizationId: started.body.authorization_id as string };
}

describe('wallet attestation at the identity provider', () => {
  it('takes a pushed request for credentials with a valid attestation', async () => {
    const res = await par(await attestationHeaders());
    expect(res.status).toBe(201);
    expect(res.body.request_uri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
  });

  it('refuses one without (it is required here), pushed or not, and a request for credentials by scope alike', async () => {
    const none = await par({});
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('wallet attestation') });
    expect((await par({}, { scope: 'age_over_sd_jwt' })).status).toBe(401);
    const { challenge } = pkce();
    const direct = await request(idp.app).get('/oauth/authorize').query({
      client_id: walletId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      authorization_details: DETAILS,
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(direct.status).toBe(303);
    expect(new URL(direct.headers.location!).searchParams.get('error')).toBe('invalid_request');
    // Data alone, no credentials: no attestation needed.
    expect((await par({}, { scope: 'openid' })).status).toBe(201);
  });

  it('checks every attestation presented: a forged one, one for another client, and a replayed PoP are 401 invalid_client', async () => {
    const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    expect((await par(await attestationHeaders({ signWith: forger }))).body).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('signature'),
    });
    expect((await par(await attestationHeaders({ clientId: 'another-client' }))).body).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('client_id'),
    });
    const once = await attestationHeaders();
    expect((await par(once)).status).toBe(201);
    expect((await par(once)).body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('jti was used before') });
    // At the token endpoint too, before anything else is looked at.
    const token = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .set(await attestationHeaders({ signWith: forger }))
      .send({ grant_type: 'authorization_code', client_id: walletId, code: 'x', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) });
    expect(token.body).toMatchObject({ error: 'invalid_client' });
  });

  it('refuses at PAR an expired attestation and a PoP made for another server, with 401 invalid_client and no request_uri', async () => {
    const expired = await par(await attestationHeaders({ expiresAt: anHourAgo() }));
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/attestation: it has expired/) });
    expect(expired.body).not.toHaveProperty('request_uri');
    // A PoP the wallet made for the credential issuer, presented here: its aud names the issuer, not this server.
    const elsewhere = await par(await attestationHeaders({ audience: ISSUER }));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/attestation PoP: its aud /) });
    expect(elsewhere.body).not.toHaveProperty('request_uri');
    // The same request with a good attestation is taken: the attestation alone was refused.
    expect((await par(await attestationHeaders())).status).toBe(201);
  });

  it('refuses at the token endpoint an expired attestation and a PoP made for another server: no token, and the code is not spent', async () => {
    const { code, verifier, authorizationId } = await approvedCode();
    const exchange = (headers: Record<string, string>) =>
      request(idp.app)
        .post('/oauth/token')
        .type('form')
        .set(headers)
        .send({ grant_type: 'authorization_code', client_id: walletId, code, redirect_uri: REDIRECT, code_verifier: verifier });
    const expired = await exchange(await attestationHeaders({ expiresAt: anHourAgo() }));
    expect(expired.status).toBe(401);
    expect(expired.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/attestation: it has expired/) });
    expect(expired.body).not.toHaveProperty('access_token');
    const elsewhere = await exchange(await attestationHeaders({ audience: ISSUER }));
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(/attestation PoP: its aud /) });
    expect(elsewhere.body).not.toHaveProperty('access_token');
    // Nothing was issued on the approval, and its code is as it was.
    const kept = await db.authorization.findUniqueOrThrow({ where: { id: authorizationId }, include: { codes: true, refreshTokens: true } });
    expect(kept).toMatchObject({ status: 'approved', lastTokenIssuedAt: null, refreshTokens: [] });
    expect(kept.codes.map((c) => c.consumedAt)).toEqual([null]);
    // The wallet, attested as it should be, then gets its tokens with that code: the refusals were the attestations'.
    const granted = await exchange(await attestationHeaders());
    expect(granted.status).toBe(200);
    expect(granted.body.authorization_details).toEqual([expect.objectContaining({ credential_configuration_id: 'age_over_sd_jwt' })]);
  });

  it('refuses a credential grant’s code and refresh token presented without an attestation: 401 invalid_client, nothing spent', async () => {
    const { code, verifier, authorizationId } = await approvedCode();
    const token = (headers: Record<string, string>, body: Record<string, string>) =>
      request(idp.app)
        .post('/oauth/token')
        .type('form')
        .set(headers)
        .send({ client_id: walletId, ...body });
    const exchange = (headers: Record<string, string>) =>
      token(headers, { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier });
    // Answered as PAR answers a request for credentials without one: same status, error and challenge.
    const atPar = await par({});
    const bare = await exchange({});
    expect(bare.status).toBe(401);
    expect(bare.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('wallet attestation') });
    expect(bare.body).not.toHaveProperty('access_token');
    expect(bare.headers['www-authenticate']).toEqual(atPar.headers['www-authenticate']);
    // The code is neither spent nor its grant revoked: the wallet, attested, still gets its tokens with it.
    const kept = await db.authorization.findUniqueOrThrow({ where: { id: authorizationId }, include: { codes: true, refreshTokens: true } });
    expect(kept).toMatchObject({ status: 'approved', lastTokenIssuedAt: null, refreshTokens: [] });
    expect(kept.codes.map((c) => c.consumedAt)).toEqual([null]);
    const granted = await exchange(await attestationHeaders());
    expect(granted.status).toBe(200);

    const refresh = (headers: Record<string, string>) => token(headers, { grant_type: 'refresh_token', refresh_token: granted.body.refresh_token });
    const unattested = await refresh({});
    expect(unattested.status).toBe(401);
    expect(unattested.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('wallet attestation') });
    expect(unattested.body).not.toHaveProperty('access_token');
    expect(unattested.headers['www-authenticate']).toEqual(atPar.headers['www-authenticate']);
    // The refresh token is not rotated and nothing is revoked: attested, it refreshes.
    const tokens = await db.refreshToken.findMany({ where: { authorizationId } });
    expect(tokens.map((t) => [t.rotatedAt, t.revokedAt])).toEqual([[null, null]]);
    const refreshed = await refresh(await attestationHeaders());
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.authorization_details).toEqual([expect.objectContaining({ credential_configuration_id: 'age_over_sd_jwt' })]);
  });

  it('asks no attestation at the token endpoint for a grant of data alone, no credentials', async () => {
    const { code, verifier } = await approvedCode({ scope: 'openid' });
    const granted = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'authorization_code', client_id: walletId, code, redirect_uri: REDIRECT, code_verifier: verifier });
    expect(granted.status).toBe(200);
    expect(granted.body).not.toHaveProperty('authorization_details');
    const refreshed = await request(idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: walletId, refresh_token: granted.body.refresh_token });
    expect(refreshed.status).toBe(200);
  });
});
