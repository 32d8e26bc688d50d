import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { deriveCredential, verifyCredential } from '../../src/vc/bbs.js';
import { issueAsIssuer, SUBJECT, useIssuer } from '../helpers.js';

// The W3C VC API shape against VC Data Model 2.0: what the model allows is signed as given,
// what it forbids is refused naming the property; each case failed before this file existed.
const suite = useIssuer();

const V2 = 'https://www.w3.org/ns/credentials/v2';
const post = (path: string, body: object) => request(suite.issuer.app).post(path).set('X-API-Token', suite.token).send(body);
/** The DID this instance signs with now (another test file may rotate the key meanwhile). */
const did = async () => (await suite.issuer.deps.issuerKeys.current()).controller;
const credentialFor = (issuer: string, members: Record<string, unknown>) => ({
  '@context': [V2],
  type: ['VerifiableCredential'],
  issuer,
  credentialSubject: { id: `did:ethr:${SUBJECT}`, name: 'Alice' },
  ...members,
});
const credentialOf = async (members: Record<string, unknown>) => credentialFor(await did(), members);
/** Issues a credential of `members` as this issuer (built again if another file rotated the key meanwhile). */
const issueWith = (members: Record<string, unknown>) => issueAsIssuer(suite.issuer, suite.token, (issuer) => credentialFor(issuer, members));

describe('what VC DM 2.0 allows is signed as given', () => {
  it.each([
    [
      'an embedded context object after the v2 URL (§4.3)',
      { '@context': [V2, { level: 'https://example.org/vocab#level' }], credentialSubject: { level: 'gold' } },
    ],
    [
      'terms the v2 context defines (name, description) and a subject type (§4.5, §4.6)',
      {
        '@context': [V2, { Person: 'https://schema.org/Person' }],
        name: 'Membership',
        description: 'A member',
        credentialSubject: { type: ['Person'], name: 'Alice' },
      },
    ],
    ['a set of subjects (§4.8)', { credentialSubject: [{ id: `did:ethr:${SUBJECT}`, name: 'Alice' }, { name: 'Bob' }] }],
  ])('%s', async (_what, members) => {
    const credential = await credentialOf(members);
    const res = await post('/credentials/issue', { credential });
    expect(res.body).toMatchObject({ verifiableCredential: expect.any(Object) });
    const { proof, id, credentialStatus, validFrom, ...signed } = res.body.verifiableCredential;
    expect(signed).toEqual(credential);
    expect(proof).toMatchObject({ cryptosuite: 'bbs-2023' });
    expect(await verifyCredential({ credential: res.body.verifiableCredential })).toEqual({ verified: true, errors: [] });
  });
});

describe('what VC DM 2.0 forbids is refused, naming the member (§4.10, §4.11, §5.4-§5.6)', () => {
  it.each([
    [{ credentialSchema: { type: 'JsonSchema' } }, 'body.credential.credentialSchema.id'],
    [{ credentialSchema: [{ id: 'https://example.org/schema.json' }] }, 'body.credential.credentialSchema[0].type'],
    [{ refreshService: { id: 'https://example.org/refresh' } }, 'body.credential.refreshService.type'],
    [{ termsOfUse: [{ type: 'Policy' }, { id: 'https://example.org/terms' }] }, 'body.credential.termsOfUse[1].type'],
    [{ evidence: { id: 'https://example.org/evidence/1' } }, 'body.credential.evidence.type'],
    [{ evidence: 'seen in person' }, 'body.credential.evidence'],
  ])('%j', async (members, field) => {
    const res = await issueWith(members);
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ field, message: expect.any(String) });
  });

  it('and reported by verify, beside what else is wrong', async () => {
    const issued = (await issueWith({})).body.verifiableCredential;
    const res = await post('/credentials/verify', { credential: { ...issued, evidence: { id: 'https://example.org/evidence/1' } } });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(false);
    expect(res.body.errors).toContainEqual(expect.stringMatching(/^credential\.evidence\.type is required/));
    // The added member is also outside the signature.
    expect(res.body.errors.length).toBeGreaterThan(1);
  });
});

describe('options.mandatoryPointers', () => {
  it('are disclosed in every derived credential, beside the issuer’s own', async () => {
    const credential = await credentialOf({ credentialSubject: { id: `did:ethr:${SUBJECT}`, name: 'Alice', description: 'member since 2020' } });
    const res = await post('/credentials/issue', { credential, options: { mandatoryPointers: ['/credentialSubject/name'] } });
    expect(res.status).toBe(201);
    const derived = await deriveCredential({ credential: res.body.verifiableCredential, selectivePointers: ['/credentialSubject/description'] });
    expect(derived.credentialSubject).toMatchObject({ name: 'Alice', description: 'member since 2020' });
    expect(derived.issuer).toBe(credential.issuer);
    expect(await verifyCredential({ credential: derived })).toEqual({ verified: true, errors: [] });
    // Without the caller's pointer, the name is the holder's to withhold.
    const plain = await post('/credentials/issue', { credential });
    const withheld = await deriveCredential({ credential: plain.body.verifiableCredential, selectivePointers: ['/credentialSubject/description'] });
    expect(withheld.credentialSubject).not.toHaveProperty('name');
  });

  it('must be JSON Pointers into the credential', async () => {
    const credential = await credentialOf({});
    const malformed = await post('/credentials/issue', { credential, options: { mandatoryPointers: ['credentialSubject/name'] } });
    expect(malformed.status).toBe(400);
    expect(malformed.body.details).toContainEqual({ field: 'body.options.mandatoryPointers[0]', message: expect.stringMatching(/JSON Pointer/) });
    const missing = await post('/credentials/issue', { credential, options: { mandatoryPointers: ['/credentialSubject/nowhere'] } });
    expect(missing.status).toBe(400);
  });
});

describe('a term the contexts do not define', () => {
  it.each([
    [
      { credentialSubject: { nickname: 'Al' } },
      /"nickname" is not defined by the credential's contexts: define it .* or add https:\/\/www\.w3\.org\/ns\/credentials\/undefined-terms\/v2/,
    ],
    [{ credentialSubject: { type: ['Person'] } }, /the type "Person" is not defined by the credential's contexts/],
  ])('is refused, saying which and what to add: %j', async (members, message) => {
    const res = await issueWith(members);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_credential', error_description: expect.stringMatching(message) });
  });
});

describe('POST /credentials/verify, the VC API request', () => {
  const issueOne = async () => (await issueWith({})).body.verifiableCredential;

  it('answers 200 {verified, checks, warnings, errors} for a credential that verifies, and honours options.checks', async () => {
    const verifiableCredential = await issueOne();
    const res = await post('/credentials/verify', { verifiableCredential, options: { expectedProofPurpose: 'assertionMethod' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ verified: true, checks: ['proof', 'validity', 'status'], warnings: [], errors: [] });
    const onlyStatus = await post('/credentials/verify', { verifiableCredential, options: { checks: ['status'] } });
    expect(onlyStatus.body).toMatchObject({ verified: true, checks: ['status'] });
  });

  it('answers 400 with every failing check as problem details: tampered and revoked both', async () => {
    const verifiableCredential = await issueOne();
    expect((await post('/credentials/revoke', { credential_id: verifiableCredential.id })).status).toBe(200);
    const tampered = { ...verifiableCredential, credentialSubject: { ...verifiableCredential.credentialSubject, name: 'Mallory' } };
    const res = await post('/credentials/verify', { verifiableCredential: tampered });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'verification_failed', verified: false, checks: ['proof', 'validity', 'status'], warnings: [] });
    const types = res.body.errors.map((e: { type: string }) => e.type);
    expect(types).toContain('https://www.w3.org/TR/vc-data-model#CRYPTOGRAPHIC_SECURITY_ERROR');
    expect(types).toContain('https://www.w3.org/ns/credentials/status#revoked');
  });

  it('refuses a proof that lacks the purpose, domain or challenge asked for', async () => {
    const verifiableCredential = await issueOne();
    for (const options of [{ expectedProofPurpose: 'authentication' }, { challenge: 'c-123' }, { domain: 'example.org' }]) {
      const res = await post('/credentials/verify', { verifiableCredential, options });
      expect(res.status).toBe(400);
      expect(res.body.errors).toContainEqual(
        expect.objectContaining({ title: 'CRYPTOGRAPHIC_SECURITY_ERROR', detail: expect.stringMatching(/^proof\.(proofPurpose|challenge|domain) is not/) }),
      );
    }
  });

  it('answers 400 naming the field for an unknown check or option', async () => {
    const verifiableCredential = await issueOne();
    const res = await post('/credentials/verify', { verifiableCredential, options: { checks: ['vibes'] } });
    expect(res.status).toBe(400);
    expect(res.body.details[0].field).toBe('body.options.checks[0]');
    expect((await post('/credentials/verify', { verifiableCredential, options: { unknown: 1 } })).status).toBe(400);
  });
});

describe('POST /credentials/derive', () => {
  it('issue with mandatory pointers → derive with selective pointers → verify (the worked example in docs/credential-issuer.md)', async () => {
    const credential = await credentialOf({ credentialSubject: { id: `did:ethr:${SUBJECT}`, name: 'Alice', description: 'member since 2020' } });
    const issued = await post('/credentials/issue', { credential, options: { mandatoryPointers: ['/credentialSubject/name'] } });
    const derived = await post('/credentials/derive', {
      verifiableCredential: issued.body.verifiableCredential,
      options: { selectivePointers: ['/credentialSubject/id'] },
    });
    expect(derived.status).toBe(201);
    const { verifiableCredential } = derived.body;
    expect(verifiableCredential.credentialSubject).toEqual({ id: `did:ethr:${SUBJECT}`, name: 'Alice' });
    expect(verifiableCredential.proof.proofValue).not.toBe(issued.body.verifiableCredential.proof.proofValue);
    expect(await verifyCredential({ credential: verifiableCredential })).toEqual({ verified: true, errors: [] });
    expect((await post('/credentials/verify', { verifiableCredential })).body).toMatchObject({ verified: true });
  });

  it('answers 400 for a pointer to nothing, a credential without a base proof, and malformed options', async () => {
    const issued = (await issueWith({})).body.verifiableCredential;
    const nowhere = await post('/credentials/derive', { verifiableCredential: issued, options: { selectivePointers: ['/credentialSubject/nowhere'] } });
    expect(nowhere.status).toBe(400);
    expect(nowhere.body.error).toBe('invalid_credential');
    const { proof: _proof, ...unsigned } = issued;
    expect((await post('/credentials/derive', { verifiableCredential: unsigned, options: { selectivePointers: ['/credentialSubject/name'] } })).status).toBe(
      400,
    );
    const malformed = await post('/credentials/derive', { verifiableCredential: issued, options: { selectivePointers: [] } });
    expect(malformed.body.details[0].field).toBe('body.options.selectivePointers');
  });
});

describe('bundled contexts', () => {
  it.each([
    [
      'the W3C examples context',
      'https://www.w3.org/ns/credentials/examples/v2',
      { type: ['ExampleDegreeCredential'], credentialSubject: { degree: { type: 'ExampleBachelorDegree', subtype: 'Bachelor of Science' } } },
    ],
    [
      'the citizenship vocabulary',
      'https://w3id.org/citizenship/v4rc1',
      { credentialSubject: { type: ['Person'], givenName: 'Alice', birthCountry: 'Bahamas' } },
    ],
  ])('%s (%s) is processed offline and signed', async (_what, url, members) => {
    const base = await credentialOf({});
    const credential = { ...base, ...members, '@context': [V2, url], type: ['VerifiableCredential', ...((members as { type?: string[] }).type ?? [])] };
    const res = await post('/credentials/issue', { credential });
    expect(res.body).toMatchObject({ verifiableCredential: { '@context': [V2, url], proof: { cryptosuite: 'bbs-2023' } } });
    expect(await verifyCredential({ credential: res.body.verifiableCredential })).toEqual({ verified: true, errors: [] });
  });

  it('an unknown one is a 400 naming it and listing what is bundled', async () => {
    const res = await issueWith({ '@context': [V2, 'https://example.com/unknown/v1'] });
    expect(res.status).toBe(400);
    expect(res.body.error_description).toMatch(/https:\/\/example\.com\/unknown\/v1 is not bundled .* https:\/\/www\.w3\.org\/ns\/credentials\/examples\/v2/);
  });
});

describe('VC Data Model 1.1 credentials', () => {
  const V1 = 'https://www.w3.org/2018/credentials/v1';
  const v1Credential = async (members: Record<string, unknown> = {}) => ({
    '@context': [V1, 'https://www.w3.org/2018/credentials/examples/v1'],
    type: ['VerifiableCredential', 'UniversityDegreeCredential'],
    issuer: await did(),
    credentialSubject: { id: `did:ethr:${SUBJECT}`, degree: { type: 'BachelorDegree', name: 'Bachelor of Science' } },
    ...members,
  });

  it('are signed with issuanceDate (added when absent, never validFrom) and verify', async () => {
    const credential = await v1Credential({ expirationDate: '2099-01-01T00:00:00Z' });
    const res = await post('/credentials/issue', { credential });
    expect(res.status).toBe(201);
    const signed = res.body.verifiableCredential;
    const { '@context': _context, ...members } = credential;
    expect(signed).toMatchObject({ ...members, issuanceDate: expect.any(String), proof: { cryptosuite: 'bbs-2023' } });
    expect(signed).not.toHaveProperty('validFrom');
    // The Data Integrity context is added beside the caller's, as the library does for 1.1 documents.
    expect(signed['@context']).toEqual([...credential['@context'], 'https://w3id.org/security/data-integrity/v2']);
    expect(await verifyCredential({ credential: signed })).toEqual({ verified: true, errors: [] });
    expect((await post('/credentials/verify', { verifiableCredential: signed })).body).toMatchObject({ verified: true });
  });

  it('past their expirationDate fail the validity check; a malformed date is a 400', async () => {
    const expired = (await post('/credentials/issue', { credential: await v1Credential({ expirationDate: '2020-01-01T00:00:00Z' }) })).body
      .verifiableCredential;
    const res = await post('/credentials/verify', { verifiableCredential: expired });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual(expect.objectContaining({ title: 'RANGE_ERROR', detail: 'the credential expired at expirationDate' }));
    const bad = await post('/credentials/issue', { credential: await v1Credential({ issuanceDate: 'yesterday' }) });
    expect(bad.body.details).toContainEqual({ field: 'body.credential.issuanceDate', message: expect.any(String) });
  });
});
