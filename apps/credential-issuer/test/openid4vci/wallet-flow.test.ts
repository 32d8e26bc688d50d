// OpenID4VCI 1.0 with SD-JWT VC, end to end over HTTP: an integrator makes an offer with its API
// key; a wallet built from @openid4vc/openid4vci takes it through the pre-authorized code flow;
// @sd-jwt/sd-jwt-vc presents one claim with key binding and verifies it, the issuer's key and the
// Token Status List fetched as any verifier would. Then what the flow must refuse.
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import request from 'supertest';
import { purgeOffers } from '../../src/openid4vci/offers/offer-purge.js';
import { buildIssuer, SUBJECT } from '../helpers.js';
import { createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as vc from '@digitalbazaar/vc';
import { deriveCredential } from '../../src/vc/bbs.js';
import { documentLoader } from '../../src/vc/document-loader.js';
import { didJwk, newHolder, present, receive, receiveLdp, verify } from './wallet.js';
import {
  AGE,
  apiToken,
  credentialRequest,
  db,
  issuer,
  nonce,
  now,
  offer,
  offered,
  organizationId,
  proof,
  tokenFor,
  url,
  useRunningIssuer,
} from './running-issuer.js';

useRunningIssuer();

describe('a wallet receives an SD-JWT VC through the pre-authorized code flow', () => {
  it('with a transaction code (the default): the holder shows one claim with key binding, the verifier checks it, and a revocation shows', async () => {
    const holder = await newHolder('ES256');
    const o = await offered(AGE);
    expect(o.tx_code).toMatch(/^\d{6}$/);
    expect(o.offer_link).toBe(`openid-credential-offer://?credential_offer_uri=${encodeURIComponent(o.credential_offer_uri)}`);
    const { credential, issuerMetadata } = await receive(holder, o.offer_link, o.tx_code);
    expect(issuerMetadata.originalDraftVersion).toBe('V1');

    // What the issuer signed: its URL, the type, the holder's key, a status entry; every claim a disclosure, with decoys.
    const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
    expect(decodeProtectedHeader(jwt!)).toMatchObject({ alg: 'ES256', typ: 'dc+sd-jwt' });
    const payload = decodeJwt(jwt!) as Record<string, any>;
    expect(payload).toMatchObject({
      iss: url,
      vct: `${url}/credential-types/age-over`,
      cnf: { jwk: { kty: 'EC', crv: 'P-256', x: holder.publicJwk.x, y: holder.publicJwk.y } },
    });
    expect(payload.age_over_18).toBeUndefined();
    expect(disclosures).toHaveLength(2);
    expect(payload._sd.length).toBeGreaterThan(2);
    expect(payload.status.status_list.uri).toMatch(new RegExp(`^${url}/token-status-lists/[0-9a-f-]{36}$`));

    const shown = await present(holder, credential, { age_over_18: true }, { aud: 'https://shop.example', nonce: 'n-0S6_WzA2Mj' });
    const verified = await verify(url, shown, 'n-0S6_WzA2Mj', ['age_over_18']);
    expect(verified.payload.age_over_18).toBe(true);
    expect(verified.payload.age_over_21).toBeUndefined();
    expect(verified.kb?.payload).toMatchObject({ aud: 'https://shop.example', nonce: 'n-0S6_WzA2Mj' });

    // Listed and revoked like every credential of the organization; the verifier's next status fetch sees it.
    const listed = await request(issuer.app).get('/credentials').query({ subject_address: SUBJECT }).set('X-API-Token', apiToken);
    expect(listed.body.items.find((c: { id: string }) => c.id === payload.jti)).toMatchObject({ format: 'dc+sd-jwt', status: 'active' });
    const revoked = await request(issuer.app).post('/credentials/revoke').set('X-API-Token', apiToken).send({ credential_id: payload.jti });
    expect(revoked.status).toBe(200);
    await expect(verify(url, shown, 'n-0S6_WzA2Mj', ['age_over_18'])).rejects.toThrow(/Status is not valid/);
  });

  it('with an EdDSA holder key and no transaction code', async () => {
    const holder = await newHolder('EdDSA');
    const o = await offered({ credential_configuration_id: 'verified_human_sd_jwt', claims: { unique_human: true, palm_verified: true }, tx_code: false });
    expect(o.tx_code).toBeUndefined();
    const { credential } = await receive(holder, o.offer_link);
    expect((decodeJwt(credential.split('~')[0]!) as { cnf: unknown }).cnf).toEqual({ jwk: { kty: 'OKP', crv: 'Ed25519', x: holder.publicJwk.x } });
    const shown = await present(holder, credential, { unique_human: true }, { aud: 'https://forum.example', nonce: 'k9' });
    expect((await verify(url, shown, 'k9', ['unique_human'])).payload).toMatchObject({ unique_human: true, vct: `${url}/credential-types/verified-human` });
  });

  it('as a W3C credential with a bbs-2023 proof (ldp_vc) about the wallet’s did:jwk: the holder derives one claim, an outside verifier checks it', async () => {
    const holder = await newHolder('ES256');
    const o = await offered({ credential_configuration_id: 'age_over_ldp_vc', claims: { age_over_18: true, age_over_21: true }, subject_address: SUBJECT });
    const { credential } = await receiveLdp(holder, o.offer_link, o.tx_code);
    expect(credential).toMatchObject({
      type: ['VerifiableCredential', 'AgeCredential'],
      issuer: expect.stringMatching(/^did:key:zUC7/),
      credentialSubject: { id: didJwk(holder), age_over_18: true, age_over_21: true },
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'bbs-2023' },
    });
    // The holder's part and the verifier's, with Digital Bazaar's libraries: the binding, the issuer and the status always shown.
    const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/age_over_18'] });
    expect(derived.credentialSubject).toEqual({ id: didJwk(holder), age_over_18: true });
    const verified = await vc.verifyCredential({
      credential: derived,
      suite: new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() }),
      documentLoader,
      checkStatus: async () => ({ verified: true }),
    });
    expect(verified.verified).toBe(true);
    // Listed under the offer's subject address, revocable like any credential.
    const listed = await request(issuer.app).get('/credentials').query({ subject_address: SUBJECT }).set('X-API-Token', apiToken);
    expect(listed.body.items.map((c: { id: string }) => c.id)).toContain(credential.id);
    await request(issuer.app).post('/credentials/revoke').set('X-API-Token', apiToken).send({ credential_id: credential.id }).expect(200);
    const status = await request(issuer.app)
      .get(`/credentials/${encodeURIComponent(credential.id)}/status`)
      .set('X-API-Token', apiToken);
    expect(status.body.revoked).toBe(true);
  });

  it('publishes what wallets and verifiers discover: issuer and authorization server metadata, the issuer’s keys, each type', async () => {
    const metadata = (await request(issuer.app).get('/.well-known/openid-credential-issuer')).body;
    expect(metadata).toMatchObject({ credential_issuer: url, credential_endpoint: `${url}/credential`, nonce_endpoint: `${url}/nonce` });
    expect(metadata.credential_configurations_supported.kyc_sd_jwt).toMatchObject({ format: 'dc+sd-jwt', vct: `${url}/credential-types/kyc` });
    expect(metadata.credential_configurations_supported.kyc_ldp_vc).toMatchObject({
      format: 'ldp_vc',
      credential_definition: { type: ['VerifiableCredential', 'KycCredential'] },
      cryptographic_binding_methods_supported: ['did:jwk'],
      credential_signing_alg_values_supported: ['bbs-2023'],
    });
    expect((await request(issuer.app).get('/.well-known/oauth-authorization-server')).body).toMatchObject({ issuer: url, token_endpoint: `${url}/token` });
    const keys = (await request(issuer.app).get('/.well-known/jwt-vc-issuer')).body;
    expect(keys.issuer).toBe(url);
    expect(keys.jwks.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256' });
    expect(keys.jwks.keys[0].d).toBeUndefined();
    const type = await request(issuer.app).get('/credential-types/age-over');
    expect(type.body).toMatchObject({ vct: `${url}/credential-types/age-over`, claims: [{ path: ['age_over_18'], sd: 'always' }, { path: ['age_over_21'] }] });
  });
});

describe('what the flow refuses', () => {
  it('an offer with claims its credential does not carry, or of the wrong type, naming the field; nothing is made', async () => {
    const before = await db.credentialOffer.count({ where: { organizationId } });
    const extra = await offer({ ...AGE, claims: { age_over_18: true, date_of_birth: '1990-01-01' } });
    expect(extra.status).toBe(400);
    expect(extra.body.error_description).toMatch(/date_of_birth/);
    const wrong = await offer({ ...AGE, claims: { age_over_18: 'yes' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.details[0].field).toBe('body.claims.age_over_18');
    expect((await offer({ ...AGE, credential_configuration_id: 'passport' })).status).toBe(400);
    expect((await request(issuer.app).post('/credential-offers').send(AGE)).status).toBe(401);
    expect(await db.credentialOffer.count({ where: { organizationId } })).toBe(before);
  });

  it('a used pre-authorized code, and an expired one (its offer URI is gone too)', async () => {
    const o = await offered();
    expect((await tokenFor(o)).status).toBe(200);
    const again = await tokenFor(o);
    expect(again.status).toBe(400);
    expect(again.body.error).toBe('invalid_grant');
    expect((await request(issuer.app).get(new URL(o.credential_offer_uri).pathname)).status).toBe(404);

    const late = await offered();
    await db.credentialOffer.update({ where: { id: late.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await request(issuer.app).get(new URL(late.credential_offer_uri).pathname)).status).toBe(404);
    expect((await tokenFor(late)).body.error).toBe('invalid_grant');
  });

  it('a wrong transaction code; five wrong ones (of any number sent at once) spend the offer, even for the right code after', async () => {
    const o = await offered({ ...AGE, tx_code: true });
    const missing = await request(issuer.app).post('/token').type('form').send({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': o.credential_offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']['pre-authorized_code'],
    });
    expect(missing.body).toMatchObject({ error: 'invalid_request', error_description: 'tx_code is required: this offer asks for a transaction code' });
    const wrong = o.tx_code === '000000' ? '000001' : '000000';
    const first = await tokenFor(o, wrong);
    expect(first.body).toMatchObject({ error: 'invalid_grant', error_description: 'The transaction code is wrong' });
    await Promise.all(Array.from({ length: 6 }, () => tokenFor(o, wrong)));
    const right = await tokenFor(o, o.tx_code);
    expect(right.status).toBe(400);
    expect(right.body.error).toBe('invalid_grant');
    // Spent for wallets too: the offer's URI no longer serves it.
    expect((await request(issuer.app).get(new URL(o.credential_offer_uri).pathname)).status).toBe(404);
  });

  it('a proof with a used or unknown nonce, for another audience, too old, or with a private key in it', async () => {
    const holder = await newHolder();
    const o = await offered();
    const accessToken = (await tokenFor(o)).body.access_token as string;
    const used = await nonce();
    const send = async (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
      credentialRequest(accessToken, { proofs: { jwt: [await proof(holder, claims, header)] } });

    expect((await send({ aud: url, iat: now(), nonce: 'never-issued' })).body.error).toBe('invalid_nonce');
    expect((await send({ aud: 'https://other-issuer.example', iat: now(), nonce: await nonce() })).body).toMatchObject({
      error: 'invalid_proof',
      error_description: `The proof's aud must be this credential issuer, ${url}`,
    });
    expect((await send({ aud: url, iat: now() - 3600, nonce: await nonce() })).body.error).toBe('invalid_proof');
    expect((await send({ aud: url, iat: now(), nonce: await nonce() }, { typ: 'JWT' })).body.error).toBe('invalid_proof');
    const withPrivate = await send({ aud: url, iat: now(), nonce: await nonce() }, { jwk: { ...holder.publicJwk, d: 'AAAA' } });
    expect(withPrivate.body.error).toBe('invalid_proof');
    // A key named by a DID this issuer would have to fetch (did:web), or by a kid beside the jwk: refused, nothing fetched.
    expect((await send({ aud: url, iat: now(), nonce: await nonce() }, { jwk: undefined, kid: 'did:web:wallet.example#key-1' })).body.error).toBe(
      'invalid_proof',
    );
    expect((await send({ aud: url, iat: now(), nonce: await nonce() }, { kid: 'did:jwk:eyJrdHkiOiJFQyJ9#0' })).body.error).toBe('invalid_proof');

    // The good proof works once; its nonce replayed in another proof is refused.
    const good = await send({ aud: url, iat: now(), nonce: used });
    expect(good.status).toBe(200);
    expect(good.headers['cache-control']).toBe('no-store');
    const replay = await send({ aud: url, iat: now(), nonce: used });
    expect(replay.status).toBe(400);
  });

  it('a second credential on one offer, another configuration, no or an unknown access token', async () => {
    const holder = await newHolder();
    const o = await offered();
    const accessToken = (await tokenFor(o)).body.access_token as string;
    const other = await credentialRequest(accessToken, {
      credential_configuration_id: 'kyc_sd_jwt',
      proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] },
    });
    expect(other.body.error).toBe('unknown_credential_configuration');
    const first = await credentialRequest(accessToken, { proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    expect(first.status).toBe(200);
    const second = await credentialRequest(accessToken, { proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    expect(second.body.error).toBe('invalid_credential_request');

    const none = await request(issuer.app).post('/credential').send({ credential_configuration_id: 'age_over_sd_jwt' });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const unknown = await credentialRequest('not-a-token', {});
    expect(unknown.status).toBe(401);
    expect(unknown.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect((await request(issuer.app).post('/token').type('form').send({ grant_type: 'authorization_code', code: 'x' })).body.error).toBe(
      'unsupported_grant_type',
    );
  });
});

describe('under load and at the edges', () => {
  it('one credential of one offer, whatever the number of parallel requests with their own nonces; no status index spent on the others', async () => {
    const holder = await newHolder();
    const o = await offered();
    const accessToken = (await tokenFor(o)).body.access_token as string;
    const proofs = await Promise.all(Array.from({ length: 6 }, async () => proof(holder, { aud: url, iat: now(), nonce: await nonce() })));
    const lists = await db.statusList.aggregate({ where: { format: 'token', issuerDid: url }, _sum: { allocated: true } });
    const answers = await Promise.all(proofs.map((p) => credentialRequest(accessToken, { proofs: { jwt: [p] } })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400, 400]);
    const after = await db.statusList.aggregate({ where: { format: 'token', issuerDid: url }, _sum: { allocated: true } });
    expect((after._sum.allocated ?? 0) - (lists._sum.allocated ?? 0)).toBe(1);
  });

  it('binds an Ed25519 key by its public members alone, whatever else the proof’s jwk carried', async () => {
    const holder = await newHolder('EdDSA');
    const o = await offered({ ...AGE, tx_code: false });
    const accessToken = (await tokenFor(o)).body.access_token as string;
    const stray = await proof(holder, { aud: url, iat: now(), nonce: await nonce() }, { jwk: { ...holder.publicJwk, y: 'c3RyYXk', use: 'sig' } });
    const res = await credentialRequest(accessToken, { proofs: { jwt: [stray] } });
    expect(res.status).toBe(200);
    expect((decodeJwt(res.body.credentials[0].credential.split('~')[0]) as { cnf: unknown }).cnf).toEqual({
      jwk: { kty: 'OKP', crv: 'Ed25519', x: holder.publicJwk.x },
    });
  });

  it('never lets a cache keep a code, a token or a nonce; a status list is cacheable, with an entity tag, and only at its own kind’s URL', async () => {
    const o = await offered();
    expect((await request(issuer.app).get(new URL(o.credential_offer_uri).pathname)).headers['cache-control']).toBe('no-store');
    const token = await tokenFor(o);
    expect(token.headers).toMatchObject({ 'cache-control': 'no-store', pragma: 'no-cache' });
    expect((await request(issuer.app).post('/nonce')).headers['cache-control']).toBe('no-store');

    const holder = await newHolder();
    const issued = await credentialRequest(token.body.access_token, { proofs: { jwt: [await proof(holder, { aud: url, iat: now(), nonce: await nonce() })] } });
    const uri = (decodeJwt(issued.body.credentials[0].credential.split('~')[0]) as { status: { status_list: { uri: string } } }).status.status_list.uri;
    const path = new URL(uri).pathname;
    const first = await request(issuer.app).get(path);
    expect(first.headers['content-type']).toBe('application/statuslist+jwt; charset=utf-8');
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(decodeProtectedHeader(first.text)).toMatchObject({ alg: 'ES256', typ: 'statuslist+jwt' });
    // Kept per version: the same bytes again, and 304 for the entity tag.
    expect((await request(issuer.app).get(path)).text).toBe(first.text);
    expect((await request(issuer.app).get(path).set('If-None-Match', first.headers.etag!)).status).toBe(304);
    // A Token Status List is not a Bitstring one, and the other way round.
    expect((await request(issuer.app).get(path.replace('/token-status-lists/', '/status-lists/'))).status).toBe(404);
    const bitstring = await db.statusList.findFirst({ where: { format: 'bitstring' } });
    if (bitstring) expect((await request(issuer.app).get(`/token-status-lists/${bitstring.id}`)).status).toBe(404);
  });

  it('limits each address’s calls to the public wallet endpoints', async () => {
    const tight = buildIssuer({ PUBLIC_URL: url, WALLET_REQUESTS_PER_MINUTE: '3', NONCES_PER_MINUTE: '2' });
    try {
      const token = () =>
        request(tight.app).post('/token').type('form').send({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': 'x' });
      expect([(await token()).status, (await token()).status, (await token()).status]).toEqual([400, 400, 400]);
      const refused = await token();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect([(await request(tight.app).post('/nonce')).status, (await request(tight.app).post('/nonce')).status]).toEqual([200, 200]);
      expect((await request(tight.app).post('/nonce')).status).toBe(429);
    } finally {
      await tight.deps.close();
    }
  });

  it('deletes offers an hour after they can no longer be used, and keeps the rest', async () => {
    const spent = await offered();
    const fresh = await offered();
    await db.credentialOffer.update({ where: { id: spent.id }, data: { expiresAt: new Date(Date.now() - 2 * 3_600_000) } });
    expect(await purgeOffers(db, new Date())).toBeGreaterThanOrEqual(1);
    expect(await db.credentialOffer.findUnique({ where: { id: spent.id } })).toBeNull();
    expect(await db.credentialOffer.findUnique({ where: { id: fresh.id } })).not.toBeNull();
  });
});
