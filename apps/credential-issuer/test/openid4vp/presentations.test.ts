// The OpenID4VP verifier as a wallet and an integrator meet it: this issuer's SD-JWT VC and mdoc,
// presented by a wallet of outside libraries (library-wallet.ts), answered as presets with
// evidence; and each way an answer is refused, naming the failed check, changing nothing it must not.
import { describe, expect, it } from '@jest/globals';
import { type AdminContext, createApiKey } from '@svc/admin';
import { createHash, randomUUID, sign } from 'node:crypto';
import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { exportJWK, generateKeyPair } from 'jose';
import request from 'supertest';
import { arrangeOrg, SUBJECT } from '../helpers.js';
import { AGE, apiToken, db, issuer, offered, organizationId, useRunningIssuer } from '../openid4vci/running-issuer.js';
import { newHolder, receive } from '../openid4vci/wallet.js';
import { answer, dcApiAnswer, encryptAnswer, postAnswer, presentMdoc, presentSdJwtVc, resolveDcApiRequest, resolveRequest } from './library-wallet.js';

useRunningIssuer();

const AGE_MDOC = { credential_configuration_id: 'age_over_mdoc', claims: { age_over_18: true, age_over_21: false }, subject_address: SUBJECT };
const ORIGIN = 'https://shop.example';

let verifierToken: string | undefined;
async function verifier() {
  const ctx: AdminContext = { db, now: () => new Date() };
  verifierToken ??= (await createApiKey(ctx, { org: organizationId, permissions: 'presentations:verify', hourlyLimit: 100_000, burstLimit: 1000 })).key;
  return verifierToken;
}
const ask = async (body: object) =>
  request(issuer.app)
    .post('/presentation-requests')
    .set('X-API-Token', await verifier())
    .send(body);
const resultOf = async (id: string) =>
  (
    await request(issuer.app)
      .get(`/presentation-requests/${id}`)
      .set('X-API-Token', await verifier())
  ).body;

/** A holder with this issuer's age credential as an SD-JWT VC and as the EU age verification mdoc. */
async function holder() {
  const h = await newHolder('ES256');
  const [sdJwt, mdoc] = await Promise.all(
    [AGE, AGE_MDOC].map(async (body) => {
      const o = await offered(body);
      return (await receive(h, o.offer_link, o.tx_code)).credential;
    }),
  );
  return { privateJwk: await exportJWK(h.privateKey), sdJwt: sdJwt!, mdoc: mdoc! };
}

async function askedFor(body: object = { presets: ['age_over_18'] }) {
  const res = await ask(body);
  expect({ status: res.status, body: res.status === 201 ? undefined : res.body }).toEqual({ status: 201, body: undefined });
  return { created: res.body, wallet: await resolveRequest(res.body.request_link) };
}

describe('an OpenID4VP 1.0 verifier that answers with presets', () => {
  it('verifies an SD-JWT VC for a preset, with the policy’s evidence, and fires presentation.verified', async () => {
    const held = await holder();
    const { created, wallet } = await askedFor({ presets: ['age_over_18'], policy: { allOf: [{ claim: 'age_over_18', operator: '==', value: true }] } });
    expect(created.request_link).toMatch(/^openid4vp:\/\/\?client_id=x509_hash%3A/);
    expect(wallet.payload).toMatchObject({ response_mode: 'direct_post.jwt', dcql_query: created.dcql_query });
    expect(created.dcql_query.credential_sets).toEqual([{ options: expect.arrayContaining([['age_over_sd_jwt'], ['eu_age_verification']]), required: true }]);

    const presentation = await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' });
    expect(await answer(wallet, { age_over_sd_jwt: [presentation] })).toEqual({ status: 200, body: {} });

    const result = await resultOf(created.id);
    expect(result).toMatchObject({
      status: 'verified',
      presets: {
        age_over_18: { value: true, format: 'dc+sd-jwt', issuer: issuer.deps.config.publicUrl, expires_at: expect.any(String), vouched_by: 'organization' },
      },
      claims: { age_over_sd_jwt: { age_over_18: true } },
      policy_result: { result: true, evidence: { checkResults: [{ claim: 'age_over_18', operator: '==', passed: true }] } },
    });
    expect(result.claims.age_over_sd_jwt.age_over_21).toBeUndefined();
    const events = await db.webhookEvent.findMany({ where: { organizationId, subject: created.id } });
    expect(events.map((e) => e.type)).toEqual(['presentation.verified']);
    // The request's key went with the answer; the result is all that is kept.
    expect((await db.presentationRequest.findUnique({ where: { id: created.id } }))!.responseKey).toEqual({});
  });

  it('verifies the EU age verification mdoc over the session transcript, and the DC API path bound to the page’s origin', async () => {
    const held = await holder();
    const { created, wallet } = await askedFor();
    const mdoc = await presentMdoc(held.mdoc, held.privateJwk, wallet, { queryId: 'eu_age_verification' });
    expect((await answer(wallet, { eu_age_verification: [mdoc] })).status).toBe(200);
    expect(await resultOf(created.id)).toMatchObject({
      status: 'verified',
      presets: { age_over_18: { value: true, format: 'mso_mdoc', issuer: expect.stringContaining('CN=') } },
    });

    const dc = await ask({ presets: ['age_over_18'], response_mode: 'dc_api.jwt', expected_origins: [ORIGIN] });
    expect(dc.body.dc_api.protocol).toBe('openid4vp-v1-signed');
    const page = await resolveDcApiRequest(dc.body.dc_api.data, ORIGIN);
    const data = await dcApiAnswer(page, {
      age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, page, { queryId: 'age_over_sd_jwt' })],
      eu_age_verification: [await presentMdoc(held.mdoc, held.privateJwk, page, { queryId: 'eu_age_verification' })],
    });
    const relay = (origin: string) =>
      verifier().then((token) =>
        request(issuer.app).post(`/presentation-requests/${dc.body.id}/dc-api-response`).set('X-API-Token', token).send({ response: data, origin }),
      );
    // A page the request does not name: refused, and the request stays open.
    const elsewhere = await relay('https://elsewhere.example');
    expect(elsewhere.status).toBe(400);
    expect(elsewhere.body.error).toBe('unexpected_origin');
    const relayed = await relay(ORIGIN);
    expect(relayed.status).toBe(200);
    expect(relayed.body).toMatchObject({ status: 'verified', presets: { age_over_18: { value: true } } });
  });

  it('refuses a wrong nonce, a wrong audience, an unrequested disclosure, and what satisfies no credential set, naming the check', async () => {
    const held = await holder();
    const cases: [string, (w: Awaited<ReturnType<typeof askedFor>>['wallet']) => Promise<Record<string, string[]>>][] = [
      ['nonce', async (w) => ({ age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, w, { queryId: 'age_over_sd_jwt', nonce: 'another' })] })],
      [
        'audience',
        async (w) => ({ age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, w, { queryId: 'age_over_sd_jwt', audience: 'x509_hash:other' })] }),
      ],
      [
        'unrequested_disclosure',
        async (w) => ({
          age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, w, { queryId: 'age_over_sd_jwt', claims: ['age_over_18', 'age_over_21'] })],
        }),
      ],
      ['unrequested_credential', async (w) => ({ kyc: [await presentSdJwtVc(held.sdJwt, held.privateJwk, w, { queryId: 'age_over_sd_jwt' })] })],
    ];
    for (const [check, vpToken] of cases) {
      const { created, wallet } = await askedFor();
      const res = await answer(wallet, await vpToken(wallet));
      expect(res.status).toBe(400);
      const result = await resultOf(created.id);
      expect({ check, result }).toMatchObject({ check, result: { status: 'pending', errors: [{ check }] } });
    }
    // Two presets, one credential: the set for is_human is not satisfied.
    const { created, wallet } = await askedFor({ presets: ['age_over_18', 'is_human'] });
    await answer(wallet, { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'credential_sets' }] });
    const events = () => db.webhookEvent.findMany({ where: { organizationId, subject: created.id } });
    // A refused answer leaves the request open (a stranger who saw the link cannot end it); the third closes it.
    expect(await events()).toEqual([]);
    for (let i = 0; i < 2; i++)
      await answer(wallet, { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(created.id)).toMatchObject({ status: 'failed', errors: [{ check: 'credential_sets' }] });
    expect((await events()).map((e) => e.type)).toEqual(['presentation.failed']);
    expect(
      (await answer(wallet, { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' })] })).status,
    ).toBe(400);
  });

  it('takes one answer: a replay is refused, one that does not decrypt leaves the request open, an expired request takes none', async () => {
    const held = await holder();
    const { created, wallet } = await askedFor();
    const vpToken = { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' })] };
    const undecryptable = await request(issuer.app)
      .post(`/presentation-requests/${created.id}/response`)
      .type('form')
      .send({ response: 'eyJhbGciOiJFQ0RILUVTIiwiZW5jIjoiQTEyOEdDTSJ9..x.y.z' });
    expect(undecryptable.status).toBe(400);
    expect((await resultOf(created.id)).status).toBe('pending');
    const jwe = await encryptAnswer(wallet, { vp_token: vpToken });
    expect((await postAnswer(wallet, jwe)).status).toBe(200);
    expect((await postAnswer(wallet, jwe)).status).toBe(400);
    expect((await resultOf(created.id)).status).toBe('verified');

    const late = await askedFor();
    await db.presentationRequest.update({ where: { id: late.created.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const lateAnswer = await answer(late.wallet, {
      age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, late.wallet, { queryId: 'age_over_sd_jwt' })],
    });
    expect(lateAnswer.status).toBe(400);
    expect(await resultOf(late.created.id)).toMatchObject({ status: 'expired' });
    expect(await request(issuer.app).get(`/presentation-requests/${late.created.id}/request-object`)).toMatchObject({ status: 400 });
  });

  it('on the person’s device: sends the wallet back to the redirect_uri with a response code, without which the result is not read', async () => {
    const held = await holder();
    // Its query is kept byte for byte (a signed return URL must still verify).
    const redirect = 'https://shop.example/wallet-done?order=7&note=a%20b&flag';
    const { created, wallet } = await askedFor({ presets: ['age_over_18'], redirect_uri: redirect });
    // A refused answer gets no redirect, and the request stays open for the person's wallet.
    const wrongNonce = await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt', nonce: 'another' });
    const refused = await answer(wallet, { age_over_sd_jwt: [wrongNonce] });
    expect(refused.status).toBe(400);
    expect(refused.body).not.toHaveProperty('redirect_uri');
    expect((await resultOf(created.id)).status).toBe('pending');

    const answered = await answer(wallet, { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(answered.status).toBe(200);
    const back = (answered.body as { redirect_uri: string }).redirect_uri;
    expect(back).toMatch(new RegExp(`^${redirect.replace(/[?]/g, '\\?')}&response_code=[A-Za-z0-9]{43}$`));
    const code = new URL(back).searchParams.get('response_code')!;
    expect(code).toMatch(/^[A-Za-z0-9]{43}$/);
    // Only its hash is kept.
    const row = await db.presentationRequest.findUnique({ where: { id: created.id } });
    expect(row!.responseCodeHash).toBe(createHash('sha256').update(code).digest('hex'));

    const read = (query: { response_code?: string }) =>
      verifier().then((token) => request(issuer.app).get(`/presentation-requests/${created.id}`).query(query).set('X-API-Token', token));
    for (const query of [{}, { response_code: 'A'.repeat(43) }]) {
      const withheld = await read(query);
      expect(withheld.status).toBe(400);
      expect(withheld.body.details).toEqual([expect.objectContaining({ field: 'response_code' })]);
      expect(JSON.stringify(withheld.body)).not.toContain('age_over_18');
    }
    expect((await read({ response_code: code })).body).toMatchObject({ status: 'verified', presets: { age_over_18: { value: true } } });

    // Without a redirect_uri, nothing changes: {} for the wallet, the result for the API key alone.
    const plain = await askedFor();
    const plainAnswer = await answer(plain.wallet, {
      age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, plain.wallet, { queryId: 'age_over_sd_jwt' })],
    });
    expect(plainAnswer).toEqual({ status: 200, body: {} });
    expect((await resultOf(plain.created.id)).status).toBe('verified');
  });

  it('refuses a redirect_uri that is not a page of the integrator’s, or with the DC API, naming the field', async () => {
    for (const redirect_uri of [
      'http://shop.example/back',
      'https://shop.example/back#here',
      'javascript:alert(1)',
      'https://shop.example/?response_code=x',
      'https://shop.example@evil.example/back',
    ]) {
      const res = await ask({ presets: ['age_over_18'], redirect_uri });
      expect([res.status, res.body.details]).toEqual([400, [expect.objectContaining({ field: 'body.redirect_uri' })]]);
    }
    const dcApi = await ask({ presets: ['age_over_18'], response_mode: 'dc_api.jwt', expected_origins: [ORIGIN], redirect_uri: 'https://shop.example/back' });
    expect([dcApi.status, dcApi.body.details]).toEqual([400, [expect.objectContaining({ field: 'body.redirect_uri' })]]);
    expect((await ask({ presets: ['age_over_18'], redirect_uri: 'http://localhost:3000/back' })).status).toBe(201);
  });

  it('refuses a revoked credential, an untrusted issuer, and a tampered mdoc digest', async () => {
    const held = await holder();
    const jti = JSON.parse(Buffer.from(held.sdJwt.split('.')[1]!, 'base64url').toString()).jti;
    await request(issuer.app).post('/credentials/revoke').set('X-API-Token', apiToken).send({ credential_id: jti }).expect(200);
    const revoked = await askedFor();
    await answer(revoked.wallet, { age_over_sd_jwt: [await presentSdJwtVc(held.sdJwt, held.privateJwk, revoked.wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(revoked.created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'status', credential_query_id: 'age_over_sd_jwt' }] });

    const other = await holder();
    const narrowed = await askedFor({ presets: ['age_over_18'], trusted_issuers: ['https://issuer.elsewhere.example'] });
    await answer(narrowed.wallet, { age_over_sd_jwt: [await presentSdJwtVc(other.sdJwt, other.privateJwk, narrowed.wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(narrowed.created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust' }] });

    // DIDs alone name no certificate issuer: such a request takes no SD-JWT VC.
    const didsOnly = await askedFor({ presets: ['age_over_18'], trusted_issuers: ['did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'] });
    await answer(didsOnly.wallet, { age_over_sd_jwt: [await presentSdJwtVc(other.sdJwt, other.privateJwk, didsOnly.wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(didsOnly.created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust' }] });

    const tampered = await askedFor();
    const mdoc = Buffer.from(await presentMdoc(other.mdoc, other.privateJwk, tampered.wallet, { queryId: 'eu_age_verification' }), 'base64url');
    // The disclosed element's value true (CBOR 0xf5) becomes false (0xf4): its digest no longer matches the MSO's.
    const at = mdoc.indexOf(Buffer.concat([Buffer.from('elementValue'), Buffer.from([0xf5])]));
    expect(at).toBeGreaterThan(0);
    mdoc[at + 'elementValue'.length] = 0xf4;
    await answer(tampered.wallet, { eu_age_verification: [mdoc.toString('base64url')] });
    expect(await resultOf(tampered.created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'digests' }] });
  });

  it('takes this issuer’s credentials only as the identity provider or the asking organization vouched for them, and signed by its issuer keys', async () => {
    // Another organization's offer says what that organization vouched for: it answers nothing for this one.
    const other = await arrangeOrg(db);
    const h = await newHolder('ES256');
    const o = await request(issuer.app)
      .post('/credential-offers')
      .set('X-API-Token', other.token.key)
      .send({ ...AGE, tx_code: false });
    const { credential } = await receive(h, o.body.offer_link);
    const { created, wallet } = await askedFor();
    await answer(wallet, { age_over_sd_jwt: [await presentSdJwtVc(credential, await exportJWK(h.privateKey), wallet, { queryId: 'age_over_sd_jwt' })] });
    expect(await resultOf(created.id)).toMatchObject({
      status: 'pending',
      errors: [{ check: 'issuer_trust', message: expect.stringContaining('another organization') }],
    });

    // The verifier's own request-signing key is certified by the same CA, as a reader: never an issuer.
    const verifierKey = await issuer.deps.verifierKey.signer();
    const holderKeys = await generateKeyPair('ES256', { extractable: true });
    const forged = await new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      signer: async (data) => sign('sha256', Buffer.from(data), { key: verifierKey.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
      signAlg: 'ES256',
      saltGenerator: () => randomUUID(),
    }).issue(
      {
        iss: issuer.deps.config.publicUrl,
        vct: `${issuer.deps.config.publicUrl}/credential-types/age-over`,
        iat: Math.floor(Date.now() / 1000),
        cnf: { jwk: await exportJWK(holderKeys.publicKey) },
        age_over_18: true,
      },
      { _sd: ['age_over_18'] },
      { header: { typ: 'dc+sd-jwt', x5c: verifierKey.x5c } },
    );
    const second = await askedFor();
    await answer(second.wallet, {
      age_over_sd_jwt: [await presentSdJwtVc(forged, await exportJWK(holderKeys.privateKey), second.wallet, { queryId: 'age_over_sd_jwt' })],
    });
    expect(await resultOf(second.created.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust' }] });
  });

  it('refuses to make a request no wallet could answer, or this service could not check, naming the field', async () => {
    const before = await db.presentationRequest.count({ where: { organizationId } });
    const both = await ask({ presets: ['age_over_18'], dcql_query: { credentials: [{ id: 'a', format: 'dc+sd-jwt' }] } });
    expect(both.status).toBe(400);
    expect(both.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body.dcql_query' })]));
    const outsideFormats = await ask({ dcql_query: { credentials: [{ id: 'a', format: 'ldp_vc' }] }, formats: ['dc+sd-jwt'] });
    expect(outsideFormats.body.details).toEqual([expect.objectContaining({ field: 'dcql_query.credentials[0].format' })]);
    const unanswerable = await ask({ presets: ['kyc_passed'], formats: ['mso_mdoc'] });
    expect(unanswerable.body.details).toEqual([expect.objectContaining({ field: 'presets', message: expect.stringContaining('kyc_passed') })]);
    const policy = await ask({ presets: ['age_over_18'], policy: { allOf: [{ claim: 'kyc_passed', operator: '==', value: true }] } });
    expect(policy.status).toBe(400);
    expect(JSON.stringify(policy.body)).toContain('kyc_passed');
    const noDcApi = await ask({ presets: ['age_over_18'], response_mode: 'dc_api.jwt' });
    expect(noDcApi.status).toBe(400);
    expect(
      (
        await request(issuer.app)
          .post('/presentation-requests')
          .set('X-API-Token', apiToken)
          .send({ presets: ['age_over_18'] })
      ).status,
    ).toBe(403);
    // Refused requests leave nothing behind.
    expect(await db.presentationRequest.count({ where: { organizationId } })).toBe(before);
  });
});
