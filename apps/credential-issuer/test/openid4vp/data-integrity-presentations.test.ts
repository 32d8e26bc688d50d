// W3C presentations (ldp_vc) over OpenID4VP: this issuer's bbs-2023 credential, derived by the
// holder with Digital Bazaar's libraries to show one claim, wrapped in a presentation the holder
// signs with a did:key for the request's nonce (challenge) and client id (domain).
import { describe, expect, it } from '@jest/globals';
import { type AdminContext, createApiKey } from '@svc/admin';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import request from 'supertest';
import { deriveCredential } from '../../src/vc/bbs.js';
import { documentLoader } from '../../src/vc/document-loader.js';
import { SUBJECT } from '../helpers.js';
import { db, issuer, offered, organizationId, useRunningIssuer } from '../openid4vci/running-issuer.js';
import { newHolder, receiveLdp } from '../openid4vci/wallet.js';
import { encryptAnswer, postAnswer, resolveRequest } from './library-wallet.js';

useRunningIssuer();

let verifierToken: string | undefined;
async function verifier() {
  const ctx: AdminContext = { db, now: () => new Date() };
  verifierToken ??= (await createApiKey(ctx, { org: organizationId, permissions: 'presentations:verify', hourlyLimit: 100_000, burstLimit: 1000 })).key;
  return verifierToken;
}

/** A derived age credential showing `pointers`, and a did:key holder that signs presentations of it. */
async function heldCredential(pointers = ['/credentialSubject/age_over_18']) {
  const o = await offered({ credential_configuration_id: 'age_over_ldp_vc', claims: { age_over_18: true, age_over_21: false }, subject_address: SUBJECT });
  const { credential } = await receiveLdp(await newHolder('ES256'), o.offer_link, o.tx_code);
  const derived = await deriveCredential({ credential, selectivePointers: pointers });
  const pair = await Ed25519Multikey.generate();
  const { publicKeyMultibase } = await pair.export({ publicKey: true });
  const did = `did:key:${publicKeyMultibase}`;
  Object.assign(pair, { controller: did, id: `${did}#${publicKeyMultibase}` });
  const present = (challenge: string, domain: string) =>
    vc.signPresentation({
      presentation: vc.createPresentation({ verifiableCredential: [derived], holder: did }),
      suite: new DataIntegrityProof({ signer: pair.signer(), cryptosuite: eddsaRdfc2022 }),
      challenge,
      domain,
      documentLoader,
    }) as Promise<Record<string, unknown>>;
  return { credential, present };
}

async function asked(body: object = { presets: ['age_over_18'], formats: ['ldp_vc'] }) {
  const res = await request(issuer.app)
    .post('/presentation-requests')
    .set('X-API-Token', await verifier())
    .send(body);
  expect(res.status).toBe(201);
  return { id: res.body.id as string, wallet: await resolveRequest(res.body.request_link) };
}
const resultOf = async (id: string) =>
  (
    await request(issuer.app)
      .get(`/presentation-requests/${id}`)
      .set('X-API-Token', await verifier())
  ).body;

describe('bbs-2023 presentations (ldp_vc) over OpenID4VP', () => {
  it('answers the preset from a derived credential whose presentation is bound to the nonce and the client id', async () => {
    const held = await heldCredential();
    const { id, wallet } = await asked();
    expect(wallet.dcqlQuery.credentials.map((c) => c.format)).toEqual(['ldp_vc']);
    const presentation = await held.present(wallet.payload.nonce, wallet.audience);
    expect((await postAnswer(wallet, await encryptAnswer(wallet, { vp_token: { age_over_ldp_vc: [presentation] } }))).status).toBe(200);
    expect(await resultOf(id)).toMatchObject({
      status: 'verified',
      presets: { age_over_18: { value: true, format: 'ldp_vc', issuer: held.credential.issuer } },
    });
  });

  it('refuses a presentation for another nonce or client id, a claim not asked for, and an issuer the request does not name', async () => {
    const held = await heldCredential();
    const other = await asked();
    await postAnswer(
      other.wallet,
      await encryptAnswer(other.wallet, { vp_token: { age_over_ldp_vc: [await held.present('another-nonce', other.wallet.audience)] } }),
    );
    expect(await resultOf(other.id)).toMatchObject({ status: 'pending', errors: [{ check: 'key_binding', credential_query_id: 'age_over_ldp_vc' }] });

    const domain = await asked();
    await postAnswer(
      domain.wallet,
      await encryptAnswer(domain.wallet, { vp_token: { age_over_ldp_vc: [await held.present(domain.wallet.payload.nonce, 'x509_hash:other')] } }),
    );
    expect(await resultOf(domain.id)).toMatchObject({ status: 'pending', errors: [{ check: 'key_binding' }] });

    const both = await heldCredential(['/credentialSubject/age_over_18', '/credentialSubject/age_over_21']);
    const tooMuch = await asked();
    await postAnswer(
      tooMuch.wallet,
      await encryptAnswer(tooMuch.wallet, { vp_token: { age_over_ldp_vc: [await both.present(tooMuch.wallet.payload.nonce, tooMuch.wallet.audience)] } }),
    );
    expect(await resultOf(tooMuch.id)).toMatchObject({ status: 'pending', errors: [{ check: 'unrequested_disclosure' }] });

    const narrowed = await asked({
      presets: ['age_over_18'],
      formats: ['ldp_vc'],
      trusted_issuers: ['did:key:z6MkpTHR8VNsBxYAAWHut2Geadd9jSwuBV8xRoAnwWsdvktH'],
    });
    await postAnswer(
      narrowed.wallet,
      await encryptAnswer(narrowed.wallet, { vp_token: { age_over_ldp_vc: [await held.present(narrowed.wallet.payload.nonce, narrowed.wallet.audience)] } }),
    );
    expect(await resultOf(narrowed.id)).toMatchObject({ status: 'pending', errors: [{ check: 'issuer_trust' }] });
  });
});
