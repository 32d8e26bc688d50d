// HAIP 1.0 at the identity provider: under WALLET_ATTESTATION_REQUIRED a wallet asks for
// credentials only by a pushed request with a wallet attestation (made by @openid4vc/oauth2, a
// library this project did not write), and any attestation presented at PAR or the token endpoint
// is checked: the provider's signature, the PoP for this server, its jti used once, the client_id.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientAuthenticationClientAttestationJwt, createClientAttestationJwt } from '@openid4vc/oauth2';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import request from 'supertest';
import { buildIdp, pkce, REDIRECT } from '../helpers.js';

const PROVIDER = 'https://wallet-provider.example';
const provider = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const providerJwk = { ...(provider.publicKey.export({ format: 'jwk' }) as JWK), kid: 'p-1' };
const DETAILS = JSON.stringify([{ type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt' }]);

let db: Db;
let idp: ReturnType<typeof buildIdp>;
let walletId: string;

beforeAll(async () => {
  db = testDb();
  const ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail('wallet-owner'), password: 'correct horse battery' });
  const org = await createOrg(ctx, { name: 'Wallets', ownerEmail: owner.email });
  walletId = (await createClient(ctx, { org: org.id, name: 'Wallet', redirectUris: [REDIRECT], scopes: 'openid identity:read', public: true })).client_id;
  const issuerClient = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: [REDIRECT], scopes: 'openid' });
  idp = buildIdp({
    CREDENTIAL_ISSUER_URL: 'https://issuer.example',
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

/** The headers the wallet library sets for a request to the identity provider, its attestation signed by `signWith`. */
async function attestationHeaders(clientId = walletId, signWith = provider.privateKey) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const instanceJwk = await exportJWK(publicKey);
  const attestation = await createClientAttestationJwt({
    issuer: PROVIDER,
    clientId,
    confirmation: { jwk: instanceJwk as never },
    expiresAt: new Date(Date.now() + 3600_000),
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
  })({ headers, authorizationServerMetadata: { issuer: idp.deps.config.issuer } } as never);
  return { 'OAuth-Client-Attestation': headers.get('OAuth-Client-Attestation')!, 'OAuth-Client-Attestation-PoP': headers.get('OAuth-Client-Attestation-PoP')! };
}

/** A pushed request for credentials; `instead` replaces how it asks (by scope, or for data alone). */
const par = (headers: Record<string, string>, instead?: Record<string, string>) => {
  const { challenge } = pkce();
  return request(idp.app)
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
};

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
    expect((await par(await attestationHeaders(walletId, forger))).body).toMatchObject({
      error: 'invalid_client',
      error_description: expect.stringContaining('signature'),
    });
    expect((await par(await attestationHeaders('another-client'))).body).toMatchObject({
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
      .set(await attestationHeaders(walletId, forger))
      .send({ grant_type: 'authorization_code', client_id: walletId, code: 'x', redirect_uri: REDIRECT, code_verifier: 'v'.repeat(43) });
    expect(token.body).toMatchObject({ error: 'invalid_client' });
  });
});
