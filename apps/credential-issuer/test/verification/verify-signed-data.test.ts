import { randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import request from 'supertest';
import { deriveCredential, signCredential } from '../../src/vc/bbs.js';
import { documentLoader } from '../../src/vc/document-loader.js';
import { buildIssuer, SUBJECT, useIssuer } from '../helpers.js';

// Verification judges a credential by the data its proof covers, never by JSON member names:
// JSON-LD lets a holder write the same signed RDF under other keys (a full IRI, "@id" for "id", a
// typed value object), so a check that reads `credential.credentialStatus` can be made to find
// nothing while the proof still verifies. Each case below was verified: true before the fix.
const suite = useIssuer();

const V2 = 'https://www.w3.org/ns/credentials/v2';
const CRED = 'https://www.w3.org/2018/credentials#';
const XSD_DATETIME = 'http://www.w3.org/2001/XMLSchema#dateTime';
const post = (path: string, body: object) => request(suite.issuer.app).post(path).set('X-API-Token', suite.token).send(body);
const did = async () => (await suite.issuer.deps.issuerKeys.current()).controller;

/** Renames member `from` of `object` to `to`, keeping its value and the other members. */
const renamed = (object: Record<string, unknown>, from: string, to: string) =>
  Object.fromEntries(Object.entries(object).map(([k, v]) => [k === from ? to : k, v]));

async function issueVcApi(members: Record<string, unknown> = {}) {
  const res = await post('/credentials/issue', {
    credential: {
      '@context': [V2, { level: 'https://example.org/vocab#level' }],
      type: ['VerifiableCredential'],
      issuer: await did(),
      credentialSubject: { id: `did:ethr:${SUBJECT}`, level: 'gold' },
      ...members,
    },
  });
  expect(res.status).toBe(201);
  return res.body.verifiableCredential as Record<string, unknown>;
}

async function derive(credential: Record<string, unknown>, pointer = '/credentialSubject/level') {
  const res = await post('/credentials/derive', { verifiableCredential: credential, options: { selectivePointers: [pointer] } });
  expect(res.status).toBe(201);
  return res.body.verifiableCredential as Record<string, unknown>;
}

const revoke = async (id: unknown) => expect((await post('/credentials/revoke', { credential_id: id })).status).toBe(200);
const verifyVcApi = (verifiableCredential: object, options?: object) => post('/credentials/verify', { verifiableCredential, ...(options ? { options } : {}) });
const titles = (res: request.Response) => (res.body.errors as { title: string }[]).map((e) => e.title);

async function holder() {
  const pair = await Ed25519Multikey.generate();
  const { publicKeyMultibase } = await pair.export({ publicKey: true });
  const holderDid = `did:key:${publicKeyMultibase}`;
  Object.assign(pair, { controller: holderDid, id: `${holderDid}#${publicKeyMultibase}` });
  return (presentation: Record<string, unknown>, challenge: string) =>
    vc.signPresentation({
      presentation: { ...presentation, holder: holderDid },
      suite: new DataIntegrityProof({ signer: pair.signer(), cryptosuite: eddsaRdfc2022 }),
      challenge,
      documentLoader,
    });
}

/** A BLS12-381 did:key of someone else's, signing credentials with the same libraries. */
async function foreignIssuer() {
  const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
  const exported = await pair.export({ publicKey: true, secretKey: true });
  const controller = `did:key:${exported.publicKeyMultibase}`;
  return { controller, key: { ...exported, id: `${controller}#${exported.publicKeyMultibase}`, controller } };
}

describe('a revoked credential stays revoked however its members are spelled', () => {
  it('credentialStatus under its full IRI (VC API shape, derived)', async () => {
    const issued = await issueVcApi();
    const derived = await derive(issued);
    await revoke(issued.id);
    expect(titles(await verifyVcApi(derived))).toContain('REVOKED');
    const disguised = renamed(derived, 'credentialStatus', `${CRED}credentialStatus`);
    const res = await verifyVcApi(disguised);
    expect(res.body.verified).toBe(false);
    expect(titles(res)).toContain('REVOKED');
  });

  it('"@id" instead of "id" on a revoked credential of the spec’s shape', async () => {
    const issued = (await post('/credentials/issue', { subject_address: SUBJECT, claims: { is_human: true } })).body.credential;
    const derived = await derive(issued, '/credentialSubject/is_human');
    await revoke(issued.id);
    expect((await post('/credentials/verify', { credential: derived })).body.errors).toContain('the credential has been revoked');
    const disguised = renamed(derived, 'id', '@id');
    const res = await post('/credentials/verify', { credential: disguised });
    expect(res.body.verified).toBe(false);
    expect(res.body.errors).toContain('the credential has been revoked');
  });

  it('inside a holder-signed presentation', async () => {
    const issued = await issueVcApi();
    const derived = await derive(issued);
    await revoke(issued.id);
    const present = await holder();
    const presentation = await present(
      { '@context': [V2], type: ['VerifiablePresentation'], verifiableCredential: [renamed(derived, 'credentialStatus', `${CRED}credentialStatus`)] },
      'c-1',
    );
    const res = await post('/presentations/verify', { verifiablePresentation: presentation, options: { challenge: 'c-1' } });
    expect(res.body.verified).toBe(false);
    expect(res.body.credentialResults[0].errors).toContainEqual(expect.objectContaining({ title: 'REVOKED' }));
  });

  it('a credential hidden from the presentation’s verifiableCredential member is not passed over', async () => {
    const issued = await issueVcApi();
    const derived = await derive(issued);
    await revoke(issued.id);
    const present = await holder();
    const presentation = await present({ '@context': [V2], type: ['VerifiablePresentation'], [`${CRED}verifiableCredential`]: { '@graph': derived } }, 'c-2');
    const res = await post('/presentations/verify', { verifiablePresentation: presentation, options: { challenge: 'c-2' } });
    expect(res.body.verified).toBe(false);
  });
});

describe('an expired credential stays expired however validUntil is spelled', () => {
  it('validUntil in 2021 under its full IRI as a typed value object', async () => {
    const issued = await issueVcApi({ validFrom: '2020-01-01T00:00:00Z', validUntil: '2021-01-01T00:00:00Z' });
    const derived = await derive(issued);
    expect(titles(await verifyVcApi(derived))).toContain('RANGE_ERROR');
    const { validUntil, ...rest } = derived;
    const disguised = { ...rest, [`${CRED}validUntil`]: { '@value': validUntil, '@type': XSD_DATETIME } };
    const res = await verifyVcApi(disguised);
    expect(res.body.verified).toBe(false);
    expect(titles(res)).toContain('RANGE_ERROR');
  });
});

describe('reserved members cannot be slipped into an issue request in another spelling', () => {
  it.each([
    ['credentialStatus under its full IRI', { [`${CRED}credentialStatus`]: { id: 'https://attacker.example/status#1', type: 'BitstringStatusListEntry' } }],
    ['a second issuer under its full IRI', { [`${CRED}issuer`]: { '@id': 'did:example:attacker' } }],
    ['validUntil under its full IRI beside the issuer’s validity', { [`${CRED}validUntil`]: { '@value': '2099-01-01T00:00:00Z', '@type': XSD_DATETIME } }],
  ])('%s is 400, and nothing is signed', async (_what, members) => {
    // A subject of its own: other test files issue credentials into the same table at the same time.
    const subject = `0x${randomBytes(20).toString('hex')}`;
    const res = await post('/credentials/issue', {
      credential: {
        '@context': [V2],
        type: ['VerifiableCredential'],
        issuer: await did(),
        credentialSubject: { id: `did:ethr:${subject}`, name: 'A' },
        ...members,
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.details[0]).toMatchObject({ field: 'body.credential', message: expect.stringContaining(Object.keys(members)[0]!) });
    expect(await suite.db.issuedCredential.count({ where: { subjectAddress: subject } })).toBe(0);
  });
});

describe('whose credentials verify', () => {
  it('a credential this issuer signed without its own status entry does not verify', async () => {
    const key = await suite.issuer.deps.issuerKeys.current();
    const credential = {
      '@context': [V2, 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
      id: `urn:uuid:${crypto.randomUUID()}`,
      type: ['VerifiableCredential'],
      issuer: key.controller,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: `did:ethr:${SUBJECT}`, is_human: true },
    };
    const signed = await signCredential({ credential, key, created: new Date('2026-01-01T00:00:00Z'), mandatoryPointers: ['/issuer'] });
    const res = await verifyVcApi(await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject'] }));
    expect(res.body.verified).toBe(false);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ detail: expect.stringMatching(/no status entry of this issuer/) }));
  });

  it('another issuer’s credential is refused by default, and accepted when the caller trusts that issuer', async () => {
    const other = await foreignIssuer();
    const credential = {
      '@context': [V2, 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
      id: `urn:uuid:${crypto.randomUUID()}`,
      type: ['VerifiableCredential'],
      issuer: other.controller,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: `did:ethr:${SUBJECT}`, is_human: true },
    };
    const signed = await signCredential({ credential, key: other.key, created: new Date('2026-01-01T00:00:00Z'), mandatoryPointers: ['/issuer'] });
    const derived = await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject'] });

    const refused = await verifyVcApi(derived);
    expect(refused.body.verified).toBe(false);
    expect(refused.body.errors).toContainEqual(expect.objectContaining({ detail: expect.stringContaining(`${other.controller} is not a trusted issuer`) }));
    const specShape = await post('/credentials/verify', { credential: derived });
    expect(specShape.body.verified).toBe(false);

    const trusted = await verifyVcApi(derived, { trustedIssuers: [other.controller] });
    expect(trusted.status).toBe(200);
    expect(trusted.body).toMatchObject({ verified: true, issuer: { id: other.controller, trustedBy: 'options.trustedIssuers' } });

    const present = await holder();
    const presentation = await present({ '@context': [V2], type: ['VerifiablePresentation'], verifiableCredential: [derived] }, 'c-3');
    const inVp = await post('/presentations/verify', { verifiablePresentation: presentation, options: { challenge: 'c-3' } });
    expect(inVp.body.verified).toBe(false);
    const inVpTrusted = await post('/presentations/verify', {
      verifiablePresentation: presentation,
      options: { challenge: 'c-3', trustedIssuers: [other.controller] },
    });
    expect(inVpTrusted.body).toMatchObject({
      verified: true,
      credentialResults: [{ verified: true, issuer: { id: other.controller, trustedBy: 'options.trustedIssuers' } }],
    });
  });

  it('a forgery naming this issuer does not verify when the caller leaves the proof check out', async () => {
    const issued = await issueVcApi();
    const forged = { ...(await derive(issued)), credentialSubject: { id: `did:ethr:${SUBJECT}`, level: 'platinum' } };
    const res = await verifyVcApi(forged, { checks: ['validity'] });
    expect(res.body.verified).toBe(false);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ detail: expect.stringMatching(/proof does not verify/) }));
  });

  it('a status entry of a trusted issuer that this service cannot check is said to be unchecked', async () => {
    const partner = await foreignIssuer();
    const credential = {
      '@context': [V2, 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
      type: ['VerifiableCredential'],
      issuer: partner.controller,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: `did:ethr:${SUBJECT}`, member: true },
      credentialStatus: { id: 'https://partner.example/status/7#3', type: 'PartnerStatusEntry' },
    };
    const signed = await signCredential({
      credential,
      key: partner.key,
      created: new Date('2026-01-01T00:00:00Z'),
      mandatoryPointers: ['/issuer', '/credentialStatus'],
    });
    const derived = await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject'] });
    const res = await verifyVcApi(derived, { trustedIssuers: [partner.controller] });
    expect(res.body.verified).toBe(true);
    expect(res.body.warnings).toEqual([
      expect.objectContaining({ title: 'STATUS_RETRIEVAL_ERROR', detail: expect.stringContaining('https://partner.example/status/7#3') }),
    ]);
  });

  it('this issuer’s own credential verifies with the answer it always had, and so does one the deployment trusts', async () => {
    const issued = await issueVcApi();
    const res = await verifyVcApi(await derive(issued));
    expect(res.body).toEqual({ verified: true, checks: ['proof', 'validity', 'status'], warnings: [], errors: [] });

    const partner = await foreignIssuer();
    const credential = {
      '@context': [V2, 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
      type: ['VerifiableCredential'],
      issuer: partner.controller,
      validFrom: '2026-01-01T00:00:00Z',
      credentialSubject: { id: `did:ethr:${SUBJECT}`, member: true },
    };
    const signed = await signCredential({ credential, key: partner.key, created: new Date('2026-01-01T00:00:00Z'), mandatoryPointers: ['/issuer'] });
    const derived = await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject'] });
    const trusting = buildIssuer({ VERIFY_TRUSTED_ISSUERS: `did:example:other, ${partner.controller}` });
    try {
      const verdict = await request(trusting.app).post('/credentials/verify').set('X-API-Token', suite.token).send({ verifiableCredential: derived });
      expect(verdict.body).toMatchObject({ verified: true, issuer: { id: partner.controller, trustedBy: 'VERIFY_TRUSTED_ISSUERS' } });
    } finally {
      await trusting.deps.close();
    }
  });
});
