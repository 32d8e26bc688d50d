// HAIP 1.0 at the credential issuer, against an issuer that trusts one wallet provider and requires
// wallet attestations, and key attestations for the age mdoc: the wallet authenticates at /token
// with an attestation made by @openid4vc/oauth2 (a library this project did not write), and binds
// credentials to keys its provider attests (OpenID4VCI 1.0 Appendix D). Then each refusal.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { clientAuthenticationClientAttestationJwt, createClientAttestationJwt } from '@openid4vc/oauth2';
import { createHeaderAndPayload, StatusList } from '@sd-jwt/jwt-status-list';
import { decodeJwt, type JWK, SignJWT } from 'jose';
import request from 'supertest';
import { AGE, credentialRequest, issuer, nonce, now, offered, proof, url, useRunningIssuer } from './running-issuer.js';
import { type Holder, newHolder, walletClient } from './wallet.js';

// The wallet provider: its key signs wallet and key attestations; the issuer trusts it by that key.
const provider = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const providerJwk = { ...(provider.publicKey.export({ format: 'jwk' }) as JWK), kid: 'acme-wallet-1' };
const PROVIDER = 'https://wallet-provider.example';
useRunningIssuer({
  WALLET_PROVIDERS: JSON.stringify([{ name: PROVIDER, keys: [providerJwk] }]),
  WALLET_ATTESTATION_REQUIRED: 'true',
  KEY_ATTESTATIONS_REQUIRED: 'age_over_mdoc',
  KEY_ATTESTATION_KEY_STORAGE: 'iso_18045_high, iso_18045_moderate',
  // The provider's status list is served on this machine.
  STATUS_LISTS_ALLOW_PRIVATE: 'true',
});

const signAsProvider = (payload: object, header: object, key = provider.privateKey) =>
  new SignJWT(payload as never).setProtectedHeader({ alg: 'ES256', kid: providerJwk.kid, ...header } as never).sign(key);

/**
 * The provider's status list of wallet units, at /status… (index 3 revoked, 5 suspended); one a
 * stranger signed at /forged, and one for another URI at /wrong-sub.
 */
let statusServer: Server;
let statusBase: string;
let statusFetches = 0;
beforeAll(async () => {
  statusServer = createServer(async (req, res) => {
    statusFetches++;
    if (!req.url?.startsWith('/status') && req.url !== '/forged' && req.url !== '/wrong-sub') return res.writeHead(404).end();
    const uri = `${statusBase}${req.url === '/wrong-sub' ? '/status' : req.url}`;
    const list = new StatusList([0, 0, 0, 1, 0, 2, 0, 0], 2);
    const { header, payload } = createHeaderAndPayload(list, { iss: PROVIDER, sub: uri, iat: now(), exp: now() + 3600 }, {
      alg: 'ES256',
      typ: 'statuslist+jwt',
    } as never);
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    res
      .writeHead(200, { 'content-type': 'application/statuslist+jwt' })
      .end(await signAsProvider(payload, header, req.url === '/forged' ? stranger : undefined));
  });
  await new Promise<void>((resolve) => statusServer.listen(0, '127.0.0.1', resolve));
  statusBase = `http://127.0.0.1:${(statusServer.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => statusServer?.close(resolve)));

/** The wallet instance's attestation, as @openid4vc/oauth2 makes it; the provider signs. */
async function walletAttestation(instance: Holder, options: { expiresAt?: Date; signWith?: typeof provider.privateKey } = {}) {
  return createClientAttestationJwt({
    issuer: PROVIDER,
    clientId: 'acme-wallet',
    confirmation: { jwk: instance.publicJwk as never },
    expiresAt: options.expiresAt ?? new Date(Date.now() + 3600_000),
    signer: { method: 'jwk', alg: 'ES256', publicJwk: providerJwk as never },
    callbacks: {
      signJwt: async (_signer: unknown, { header, payload }: { header: object; payload: object }) => ({
        jwt: await signAsProvider(payload, header, options.signWith),
        signerJwk: providerJwk as never,
      }),
    } as never,
  });
}

/** The wallet's own client authentication: the attestation and a PoP the instance key signs for the token endpoint. */
const attested = (instance: Holder, attestation: string) =>
  clientAuthenticationClientAttestationJwt({
    clientAttestationJwt: attestation,
    callbacks: {
      generateRandom: (n: number) => randomBytes(n),
      signJwt: async (_signer: unknown, { header, payload }: { header: object; payload: object }) => ({
        jwt: await new SignJWT(payload as never).setProtectedHeader(header as never).sign(instance.privateKey),
        signerJwk: instance.publicJwk as never,
      }),
    } as never,
  });

/** What the provider says of keys the wallet holds: OpenID4VCI 1.0 Appendix D, as the final text types it. */
const keyAttestation = (keys: JWK[], claims: object = {}) =>
  signAsProvider(
    { iss: PROVIDER, iat: now(), exp: now() + 3600, attested_keys: keys, key_storage: ['iso_18045_high'], ...claims },
    { typ: 'key-attestation+jwt' },
  );

/** The pre-authorized code flow up to the access token, the wallet authenticated by `authentication`. */
async function tokenWith(authentication: ReturnType<typeof attested> | undefined, body: object = AGE) {
  const instance = await newHolder();
  const o = await offered(body);
  const client = walletClient(instance, authentication);
  const credentialOffer = await client.resolveCredentialOffer(o.offer_link);
  const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
  const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({ credentialOffer, issuerMetadata, txCode: o.tx_code! });
  return accessTokenResponse.access_token;
}

const tokenForm = (o: Awaited<ReturnType<typeof offered>>) => ({
  grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
  'pre-authorized_code': o.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'],
  tx_code: o.tx_code!,
});

describe('wallet attestation at the token endpoint', () => {
  it('is advertised, and a wallet that presents a valid one gets its token and credential', async () => {
    const as = (await request(issuer.app).get('/.well-known/oauth-authorization-server')).body;
    expect(as).toMatchObject({
      token_endpoint_auth_methods_supported: ['attest_jwt_client_auth'],
      'pre-authorized_grant_anonymous_access_supported': false,
      client_attestation_pop_signing_alg_values_supported: expect.arrayContaining(['ES256']),
    });
    const instance = await newHolder();
    const token = await tokenWith(attested(instance, await walletAttestation(instance)));
    const holder = await newHolder();
    const issued = await credentialRequest(token, { proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    expect(issued.status).toBe(200);
  });

  it('refuses none (it is required here), a forged one, an expired one, a PoP for another server, another client_id, and a replayed PoP: 401 invalid_client', async () => {
    const o = await offered(AGE);
    const none = await request(issuer.app).post('/token').type('form').send(tokenForm(o));
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('required') });

    const instance = await newHolder();
    const headersOf = async (attestation: string, aud = url) => {
      const headers = new Headers();
      await attested(instance, attestation)({ headers, authorizationServerMetadata: { issuer: aud } } as never);
      return {
        'OAuth-Client-Attestation': headers.get('OAuth-Client-Attestation')!,
        'OAuth-Client-Attestation-PoP': headers.get('OAuth-Client-Attestation-PoP')!,
      };
    };
    const tokenWithHeaders = (headers: Record<string, string>) => request(issuer.app).post('/token').type('form').set(headers).send(tokenForm(o));
    const forger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const cases = [
      [await headersOf(await walletAttestation(instance, { signWith: forger })), /signature does not verify/],
      [await headersOf(await walletAttestation(instance, { expiresAt: new Date(Date.now() - 600_000) })), /expired/],
      [await headersOf(await walletAttestation(instance), 'https://another-server.example'), /PoP: its aud/],
    ] as const;
    for (const [headers, reason] of cases) {
      const res = await tokenWithHeaders(headers);
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 401, error: 'invalid_client' });
      expect(res.body.error_description).toMatch(reason);
    }
    const other = await request(issuer.app)
      .post('/token')
      .type('form')
      .set(await headersOf(await walletAttestation(instance)))
      .send({ ...tokenForm(o), client_id: 'someone-else' });
    expect(other.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('client_id') });
    const once = await headersOf(await walletAttestation(instance));
    expect((await tokenWithHeaders(once)).status).toBe(200);
    const replayed = await request(issuer.app)
      .post('/token')
      .type('form')
      .set(once)
      .send(tokenForm(await offered(AGE)));
    expect(replayed.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringContaining('jti was used before') });
  });
});

describe('key attestations', () => {
  it('binds the age mdoc only to an attested key: in the jwt proof’s key_attestation header, or as the attestation proof with one credential per key', async () => {
    const metadata = (await request(issuer.app).get('/.well-known/openid-credential-issuer')).body;
    expect(metadata.credential_configurations_supported.age_over_mdoc.proof_types_supported).toEqual({
      jwt: { proof_signing_alg_values_supported: ['ES256'], key_attestations_required: { key_storage: ['iso_18045_high', 'iso_18045_moderate'] } },
      attestation: {
        proof_signing_alg_values_supported: expect.arrayContaining(['ES256']),
        key_attestations_required: { key_storage: ['iso_18045_high', 'iso_18045_moderate'] },
      },
    });
    expect(metadata.credential_configurations_supported.age_over_sd_jwt.proof_types_supported.jwt.key_attestations_required).toBeUndefined();

    const instance = await newHolder();
    const attestation = await walletAttestation(instance);
    const mdocToken = () => tokenWith(attested(instance, attestation), { ...AGE, credential_configuration_id: 'age_over_mdoc' });
    const holder = await newHolder();
    const inHeader = await credentialRequest(await mdocToken(), {
      credential_configuration_id: 'age_over_mdoc',
      proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() }, { key_attestation: await keyAttestation([holder.publicJwk]) })] },
    });
    expect(inHeader.status).toBe(200);

    const keys = [await newHolder(), await newHolder()];
    const asProof = await credentialRequest(await mdocToken(), {
      credential_configuration_id: 'age_over_mdoc',
      proofs: {
        attestation: [
          await keyAttestation(
            keys.map((k) => k.publicJwk),
            { nonce: await nonce() },
          ),
        ],
      },
    });
    expect(asProof.status).toBe(200);
    expect(asProof.body.credentials).toHaveLength(2);
  });

  it('refuses a proof without one where it is required, one that does not list the proof’s key, another provider’s, the draft typ, and an attestation proof without a nonce', async () => {
    const instance = await newHolder();
    const attestation = await walletAttestation(instance);
    const ask = async (proofs: object) =>
      (
        await credentialRequest(await tokenWith(attested(instance, attestation), { ...AGE, credential_configuration_id: 'age_over_mdoc' }), {
          credential_configuration_id: 'age_over_mdoc',
          proofs,
        })
      ).body;
    const holder = await newHolder();
    const other = await newHolder();
    const jwtProof = async (header: Record<string, unknown>) => ({ jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() }, header)] });
    expect(await ask(await jwtProof({}))).toMatchObject({ error: 'invalid_proof', error_description: expect.stringContaining('attested keys only') });
    expect(await ask(await jwtProof({ key_attestation: await keyAttestation([other.publicJwk]) }))).toMatchObject({
      error: 'invalid_proof',
      error_description: expect.stringContaining('does not list the key'),
    });
    const stranger = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const forged = await signAsProvider(
      { iss: PROVIDER, iat: now(), exp: now() + 60, attested_keys: [holder.publicJwk] },
      { typ: 'key-attestation+jwt' },
      stranger,
    );
    expect(await ask(await jwtProof({ key_attestation: forged }))).toMatchObject({
      error: 'invalid_proof',
      error_description: expect.stringContaining('signature'),
    });
    const draftTyp = await signAsProvider({ iss: PROVIDER, iat: now(), exp: now() + 60, attested_keys: [holder.publicJwk] }, { typ: 'keyattestation+jwt' });
    expect(await ask(await jwtProof({ key_attestation: draftTyp }))).toMatchObject({
      error: 'invalid_proof',
      error_description: expect.stringContaining('typ'),
    });
    expect(await ask({ attestation: [await keyAttestation([holder.publicJwk])] })).toMatchObject({
      error: 'invalid_proof',
      error_description: expect.stringContaining('nonce'),
    });
    expect(await ask({ attestation: [await keyAttestation([holder.publicJwk], { nonce: 'never-issued' })] })).toMatchObject({ error: 'invalid_nonce' });
    expect(decodeJwt(await keyAttestation([holder.publicJwk])).iss).toBe(PROVIDER);
  });

  it('takes a key attestation only at a key storage level it accepts, and not once its provider revoked or suspended the wallet unit', async () => {
    const instance = await newHolder();
    const attestation = await walletAttestation(instance);
    const ask = async (claims: object) => {
      const holder = await newHolder();
      const token = await tokenWith(attested(instance, attestation), { ...AGE, credential_configuration_id: 'age_over_mdoc' });
      const header = { key_attestation: await keyAttestation([holder.publicJwk], claims) };
      const res = await credentialRequest(token, {
        credential_configuration_id: 'age_over_mdoc',
        proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() }, header)] },
      });
      return { status: res.status, error: res.body.error, description: res.body.error_description as string | undefined };
    };
    const refusal = (words: string) => ({ status: 400, error: 'invalid_proof', description: expect.stringContaining(words) });
    expect(await ask({ key_storage: ['iso_18045_basic'] })).toEqual(refusal('key_storage (iso_18045_basic) is none this issuer accepts here'));
    expect(await ask({ key_storage: ['iso_18045_moderate'] })).toMatchObject({ status: 200 });

    const entry = (idx: number, path = '/status') => ({ status: { status_list: { idx, uri: `${statusBase}${path}` } } });
    expect(await ask(entry(4))).toMatchObject({ status: 200 });
    expect(await ask(entry(3))).toEqual(refusal('revoked or suspended by its wallet provider'));
    expect(await ask(entry(5))).toEqual(refusal('revoked or suspended by its wallet provider'));
    // Not had, or not the provider's: refused, never taken as valid.
    expect(await ask(entry(4, '/gone'))).toEqual(refusal('status cannot be checked'));
    expect(await ask(entry(4, '/forged'))).toEqual(refusal('not a status list token its provider signed'));
    expect(await ask(entry(4, '/wrong-sub'))).toEqual(refusal(`the token at ${statusBase}/wrong-sub is for ${statusBase}/status`));
    expect(await ask({ status: { status_list: { idx: -1, uri: `${statusBase}/status` } } })).toEqual(refusal('status must be'));

    // A batch whose proofs' attestations share their provider's list fetches it once, and the
    // next request within the minute not at all.
    const holders = [await newHolder(), await newHolder()];
    const token = await tokenWith(attested(instance, attestation), { ...AGE, credential_configuration_id: 'age_over_mdoc' });
    const proofs = await Promise.all(
      holders.map(async (h) =>
        proof(h, { aud: url, iat: now(), nonce: await nonce() }, { key_attestation: await keyAttestation([h.publicJwk], entry(4, '/status/batch')) }),
      ),
    );
    const before = statusFetches;
    const batch = await credentialRequest(token, { credential_configuration_id: 'age_over_mdoc', proofs: { jwt: proofs } });
    expect([batch.status, batch.body.credentials?.length, statusFetches - before]).toEqual([200, 2, 1]);
    expect(await ask(entry(6, '/status/batch'))).toMatchObject({ status: 200 });
    expect(statusFetches - before).toBe(1);
  });
});
