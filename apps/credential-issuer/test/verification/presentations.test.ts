import { describe, expect, it } from '@jest/globals';
import { createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as EcdsaMultikey from '@digitalbazaar/ecdsa-multikey';
import { cryptosuite as ecdsaRdfc2019 } from '@digitalbazaar/ecdsa-rdfc-2019-cryptosuite';
import * as Ed25519Multikey from '@digitalbazaar/ed25519-multikey';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import * as vc from '@digitalbazaar/vc';
import request from 'supertest';
import { documentLoader } from '../../src/vc/document-loader.js';
import { SUBJECT, useIssuer } from '../helpers.js';

// A holder wraps a credential this issuer signed (derived, so it discloses only some claims) in a
// presentation and signs it for a verifier's challenge; POST /presentations/verify checks both.
const suite = useIssuer();

const post = (path: string, body: object) => request(suite.issuer.app).post(path).set('X-API-Token', suite.token).send(body);

async function derivedCredential() {
  const issued = await post('/credentials/issue', { subject_address: SUBJECT, claims: { age_over_18: true, nationality: 'DE' } });
  const derived = await post('/credentials/derive', {
    verifiableCredential: issued.body.credential,
    options: { selectivePointers: ['/credentialSubject/age_over_18'] },
  });
  expect(derived.status).toBe(201);
  return { issued: issued.body.credential, derived: derived.body.verifiableCredential };
}

/** A did:key holder of the given kind, signing presentations with its cryptosuite. */
async function holder(kind: 'Ed25519' | 'P-256') {
  const pair = kind === 'Ed25519' ? await Ed25519Multikey.generate() : await EcdsaMultikey.generate({ curve: 'P-256' });
  const { publicKeyMultibase } = await pair.export({ publicKey: true });
  const did = `did:key:${publicKeyMultibase}`;
  Object.assign(pair, { controller: did, id: `${did}#${publicKeyMultibase}` });
  const cryptosuite = kind === 'Ed25519' ? eddsaRdfc2022 : ecdsaRdfc2019;
  return {
    did,
    present: (credentials: object[], challenge: string, domain?: string) =>
      vc.signPresentation({
        presentation: vc.createPresentation({ verifiableCredential: credentials, holder: did }),
        suite: new DataIntegrityProof({ signer: pair.signer(), cryptosuite }),
        challenge,
        ...(domain ? { domain } : {}),
        documentLoader,
      }),
  };
}

describe('POST /presentations/verify', () => {
  it.each(['Ed25519', 'P-256'] as const)('verifies a %s holder’s presentation of a derived credential, with challenge and domain', async (kind) => {
    const { derived } = await derivedCredential();
    const presentation = await (await holder(kind)).present([derived], 'challenge-123', 'verifier.example');
    const res = await post('/presentations/verify', {
      verifiablePresentation: presentation,
      options: { challenge: 'challenge-123', domain: 'verifier.example' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      verified: true,
      checks: ['proof', 'credentials'],
      warnings: [],
      errors: [],
      credentialResults: [{ id: derived.id, verified: true, errors: [] }],
    });
  });

  it('refuses another challenge or domain, a tampered credential inside, and a revoked one', async () => {
    const { issued, derived } = await derivedCredential();
    const alice = await holder('Ed25519');
    const presentation = await alice.present([derived], 'challenge-123', 'verifier.example');
    const verify = (p: object, options: object) => post('/presentations/verify', { verifiablePresentation: p, options });
    const wrongChallenge = await verify(presentation, { challenge: 'another', domain: 'verifier.example' });
    expect(wrongChallenge.body).toMatchObject({ verified: false, errors: [expect.objectContaining({ title: 'CRYPTOGRAPHIC_SECURITY_ERROR' })] });
    expect((await verify(presentation, { challenge: 'challenge-123', domain: 'elsewhere.example' })).body.verified).toBe(false);

    const tampered = await alice.present([{ ...derived, credentialSubject: { ...derived.credentialSubject, age_over_18: false } }], 'c-2');
    const tamperedRes = await verify(tampered, { challenge: 'c-2' });
    expect(tamperedRes.body).toMatchObject({ verified: false, errors: [], credentialResults: [{ verified: false }] });

    expect((await post('/credentials/revoke', { credential_id: issued.id })).status).toBe(200);
    const revoked = await verify(await alice.present([derived], 'c-3'), { challenge: 'c-3' });
    expect(revoked.body.verified).toBe(false);
    expect(revoked.body.credentialResults[0].errors).toContainEqual(expect.objectContaining({ detail: 'the credential has been revoked' }));
  });

  it('answers 400 naming the field for a malformed request', async () => {
    const res = await post('/presentations/verify', { verifiablePresentation: 'vp', options: { challenge: 'x' } });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('body.verifiablePresentation');
  });
});

describe('language and direction (VC DM 2.0 §11.1, rdfDirection i18n-datatype)', () => {
  const tagged = (value: string, language: string, direction: 'ltr' | 'rtl') => ({ '@value': value, '@language': language, '@direction': direction });

  it('issues, verifies, derives and presents a credential whose name and description, and its issuer’s, carry a direction', async () => {
    const issuerDid = (await suite.issuer.deps.issuerKeys.current()).controller;
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2'],
      type: ['VerifiableCredential'],
      issuer: { id: issuerDid, name: tagged('Example Issuer', 'en', 'ltr'), description: tagged('مُصدِر تجريبي', 'ar', 'rtl') },
      name: tagged('Example', 'en', 'ltr'),
      description: [tagged('A credential with a direction', 'en', 'ltr'), tagged('شهادة تجريبية', 'ar', 'rtl')],
      credentialSubject: { id: `did:ethr:${SUBJECT}`, name: tagged('Alice', 'en', 'ltr'), description: tagged('عضو', 'ar', 'rtl') },
    };
    const issued = await post('/credentials/issue', { credential, options: { mandatoryPointers: ['/name'] } });
    expect(issued.body).toMatchObject({ verifiableCredential: { issuer: credential.issuer, name: credential.name, proof: { cryptosuite: 'bbs-2023' } } });
    const base = issued.body.verifiableCredential;
    expect((await post('/credentials/verify', { verifiableCredential: base })).body).toMatchObject({ verified: true, errors: [] });

    const derived = await post('/credentials/derive', {
      verifiableCredential: base,
      options: { selectivePointers: ['/credentialSubject/name', '/description'] },
    });
    expect(derived.status).toBe(201);
    const shown = derived.body.verifiableCredential;
    expect(shown).toMatchObject({ issuer: credential.issuer, name: credential.name, description: credential.description });
    expect(shown.credentialSubject).toEqual({ id: `did:ethr:${SUBJECT}`, name: credential.credentialSubject.name });
    expect((await post('/credentials/verify', { verifiableCredential: shown })).body).toMatchObject({ verified: true, errors: [] });
    // As any bbs-2023 verifier does, with the unmodified library.
    const library = await vc.verifyCredential({
      credential: shown,
      suite: new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() }),
      documentLoader,
      checkStatus: async () => ({ verified: true }),
    });
    expect(library.verified).toBe(true);

    const presentation = await (await holder('Ed25519')).present([shown], 'challenge-dir');
    const presented = await post('/presentations/verify', { verifiablePresentation: presentation, options: { challenge: 'challenge-dir' } });
    expect(presented.body).toMatchObject({ verified: true, errors: [], credentialResults: [{ verified: true, errors: [] }] });
  });
});
