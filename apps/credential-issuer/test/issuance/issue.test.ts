import { generateApiKey } from '@svc/secrets';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { disableApiKey, rotateSigningKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { deriveCredential, verifyCredential } from '../../src/vc/bbs.js';
import { arrangeOrg, buildIssuer, SUBJECT } from '../helpers.js';

let db: Db;
let issuer: ReturnType<typeof buildIssuer>;
let token: string;
let ctx: Awaited<ReturnType<typeof arrangeOrg>>['ctx'];
let organizationId: string;

beforeAll(async () => {
  db = testDb();
  issuer = buildIssuer();
  const arranged = await arrangeOrg(db);
  token = arranged.token.key;
  ctx = arranged.ctx;
  organizationId = arranged.org.id;
});
afterAll(async () => {
  await issuer.deps.close();
  await db.$disconnect();
});

const claims = { age_over_18: true, kyc_level: 2, residence: { country: 'DE', region: 'EU' }, languages: ['de', 'en'] };
const issue = (body: unknown, key = token) =>
  request(issuer.app)
    .post('/credentials/issue')
    .set('X-API-Token', key)
    .send(body as object);

describe('POST /credentials/issue (the spec’s shape)', () => {
  it('issues a W3C VC 2.0 credential with a bbs-2023 base proof', async () => {
    const res = await issue({ subject_address: SUBJECT, claims });
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Credential issued');
    const vc = res.body.credential;
    expect(vc['@context']).toEqual(['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2']);
    expect(vc.type).toEqual(['VerifiableCredential']);
    expect(vc.issuer).toMatch(/^did:key:zUC[67]/);
    expect(vc.id).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(Date.parse(vc.validFrom)).not.toBeNaN();
    // No end: the member is left out (VC DM 2.0 §4.9: a validUntil present is a dateTimeStamp, which "" is not).
    expect(vc).not.toHaveProperty('validUntil');
    expect(vc.credentialSubject).toEqual({ id: `did:ethr:${SUBJECT}`, ...claims });
    expect(vc.credentialStatus).toEqual({
      type: 'SvcRevocationRegistry',
      chain_id: '1',
      revocation_registry_contract_address: '0x0000000000000000000000000000000000000000',
      did_registry_contract_address: '0x0000000000000000000000000000000000000000',
    });
    expect(vc.proof).toEqual({
      type: 'DataIntegrityProof',
      cryptosuite: 'bbs-2023',
      created: vc.validFrom,
      verificationMethod: `${vc.issuer}#${vc.issuer.slice('did:key:'.length)}`,
      proofPurpose: 'assertionMethod',
      proofValue: expect.stringMatching(/^u/),
    });
    const record = await db.issuedCredential.findUniqueOrThrow({ where: { id: vc.id.slice(9) } });
    expect(record).toMatchObject({ subjectAddress: SUBJECT, claimNames: Object.keys(claims), status: 'active' });
  });

  it('takes validUntil from the request', async () => {
    const res = await issue({ subject_address: SUBJECT, claims: { a: 1 }, valid_until: '2030-01-01T00:00:00Z' });
    expect(res.body.credential.validUntil).toBe('2030-01-01T00:00:00Z');
  });

  it('is derived by a holder with the library, and the derived proof verifies (with created kept)', async () => {
    const { credential } = (await issue({ subject_address: SUBJECT, claims })).body;
    const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/age_over_18'] });
    expect(derived.credentialSubject).toEqual({ id: `did:ethr:${SUBJECT}`, age_over_18: true });
    expect(derived.proof.created).toBe(credential.proof.created);
    expect(await verifyCredential({ credential: derived })).toEqual({ verified: true, errors: [] });
    const res = await request(issuer.app).post('/credentials/verify').set('X-API-Token', token).send({ credential: derived });
    expect(res.body).toEqual({ verified: true, checks: ['proof', 'validity', 'status'], errors: [] });
  });

  it('verifies its own base credential, and refuses a tampered claim', async () => {
    const { credential } = (await issue({ subject_address: SUBJECT, claims })).body;
    expect((await request(issuer.app).post('/credentials/verify').set('X-API-Token', token).send({ credential })).body.verified).toBe(true);
    const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/kyc_level'] });
    derived.credentialSubject.kyc_level = 3;
    const res = await request(issuer.app).post('/credentials/verify').set('X-API-Token', token).send({ credential: derived });
    expect(res.status).toBe(200);
    expect(res.body.verified).toBe(false);
    expect(res.body.errors.length).toBeGreaterThan(0);
  });

  it('tells the organization’s webhook outbox of each issue and the first revocation, by credential id only', async () => {
    const { credential } = (await issue({ subject_address: SUBJECT, claims })).body;
    await request(issuer.app).post('/credentials/revoke').set('X-API-Token', token).send({ credential_id: credential.id });
    await request(issuer.app).post('/credentials/revoke').set('X-API-Token', token).send({ credential_id: credential.id });
    const events = await db.webhookEvent.findMany({ where: { subject: credential.id }, orderBy: { occurredAt: 'asc' } });
    expect(events.map((e) => [e.organizationId, e.type, e.data])).toEqual([
      [organizationId, 'credential.issued', { credential_id: credential.id }],
      [organizationId, 'credential.revoked', { credential_id: credential.id }],
    ]);
  });

  it('reports a revoked credential as revoked and fails its verification', async () => {
    const { credential } = (await issue({ subject_address: SUBJECT, claims })).body;
    const revoked = await request(issuer.app).post('/credentials/revoke').set('X-API-Token', token).send({ credential_id: credential.id });
    expect(revoked.body).toEqual({ revoked: true, credential_id: credential.id, revoked_at: expect.any(String) });
    const again = await request(issuer.app).post('/credentials/revoke').set('X-API-Token', token).send({ credential_id: credential.id });
    expect(again.body.revoked_at).toBe(revoked.body.revoked_at);
    const status = await request(issuer.app)
      .get(`/credentials/${encodeURIComponent(credential.id)}/status`)
      .set('X-API-Token', token);
    expect(status.body).toEqual({ credential_id: credential.id, revoked: true, revoked_at: revoked.body.revoked_at });
    const verified = await request(issuer.app).post('/credentials/verify').set('X-API-Token', token).send({ credential });
    expect(verified.body).toMatchObject({ verified: false, errors: ['the credential has been revoked'] });
  });

  it('keeps verifying credentials signed before a key rotation', async () => {
    const before = (await issue({ subject_address: SUBJECT, claims })).body.credential;
    await rotateSigningKey(ctx, { service: 'credential-issuer' });
    const fresh = buildIssuer();
    try {
      const after = (await request(fresh.app).post('/credentials/issue').set('X-API-Token', token).send({ subject_address: SUBJECT, claims })).body.credential;
      expect(after.issuer).not.toBe(before.issuer);
      for (const credential of [before, after]) {
        expect((await request(fresh.app).post('/credentials/verify').set('X-API-Token', token).send({ credential })).body.verified).toBe(true);
      }
    } finally {
      await fresh.deps.close();
    }
  });
});

describe('POST /credentials/issue (the W3C VC API shape)', () => {
  it('signs the caller’s credential and answers 201 {verifiableCredential}', async () => {
    // A fresh instance: its key cache starts with the newest key (an earlier test rotated it), so
    // the DID it reports is the one it signs with, however slow the machine.
    const fresh = buildIssuer();
    const issueFresh = (body: unknown) =>
      request(fresh.app)
        .post('/credentials/issue')
        .set('X-API-Token', token)
        .send(body as object);
    try {
      const did = (await issueFresh({ subject_address: SUBJECT, claims: { a: 1 } })).body.credential.issuer;
      const credential = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
        type: ['VerifiableCredential'],
        issuer: did,
        credentialSubject: { id: `did:ethr:${SUBJECT}`, member_since: '2020-01-01' },
      };
      const res = await issueFresh({ credential, options: {} });
      expect(res.status).toBe(201);
      expect(res.body.verifiableCredential).toMatchObject({ ...credential, id: expect.stringMatching(/^urn:uuid:/), proof: { cryptosuite: 'bbs-2023' } });
      expect(await verifyCredential({ credential: res.body.verifiableCredential })).toEqual({ verified: true, errors: [] });
    } finally {
      await fresh.deps.close();
    }
  });
});

describe('authentication', () => {
  it('answers 401 without a token or with an unknown one', async () => {
    const missing = await request(issuer.app).post('/credentials/issue').send({ subject_address: SUBJECT, claims });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: 'unauthorized', error_description: 'The X-API-Token header is required', request_id: expect.any(String) });
    const unknown = await issue({ subject_address: SUBJECT, claims }, 'svck_nope');
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({ error: 'invalid_token', error_description: 'The API token is not valid', request_id: expect.any(String) });
    // A sandbox key is told what it is: the credential issuer runs in production only.
    const sandboxKey = await issue({ subject_address: SUBJECT, claims }, generateApiKey('sandbox').key);
    expect([sandboxKey.status, sandboxKey.body.error_description]).toEqual([
      401,
      'The API token is a sandbox key (sbx_): the credential issuer takes production keys only',
    ]);
  });

  it('answers 403 for a token without credentials:issue or a disabled one', async () => {
    const { token: walletOnly } = await arrangeOrg(db, 'wallet:verify');
    expect((await issue({ subject_address: SUBJECT, claims }, walletOnly.key)).status).toBe(403);
    const { token: doomed, ctx: c } = await arrangeOrg(db);
    await disableApiKey(c, { id: doomed.id });
    const fresh = buildIssuer();
    try {
      const res = await request(fresh.app).post('/credentials/issue').set('X-API-Token', doomed.key).send({ subject_address: SUBJECT, claims });
      expect(res.status).toBe(403);
    } finally {
      await fresh.deps.close();
    }
  });
});
