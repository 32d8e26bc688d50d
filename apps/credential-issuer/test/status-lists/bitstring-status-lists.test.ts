import { describe, expect, it } from '@jest/globals';
import { createVerifyCryptosuite } from '@digitalbazaar/bbs-2023-cryptosuite';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import * as vc from '@digitalbazaar/vc';
import { checkStatus, decodeList } from '@digitalbazaar/vc-bitstring-status-list';
import { rotateSigningKey } from '@svc/admin';
import type { Express } from 'express';
import request from 'supertest';
import { permutedIndex, STATUS_LIST_LENGTH } from '../../src/status-lists/status-lists.js';
import { deriveCredential } from '../../src/vc/bbs.js';
import { documentLoader } from '../../src/vc/document-loader.js';
import { arrangeOrg, buildIssuer, issueAsIssuer, SUBJECT, useIssuer } from '../helpers.js';

// Bitstring Status List (W3C Recommendation) beside the issuer's registry entry: lists served
// publicly, signed by the issuer's DID, flipped by revocation, and checked by a verifier that knows
// nothing of this service (Digital Bazaar's status list library, fetching through HTTP).
const suite = useIssuer();

const V2 = 'https://www.w3.org/ns/credentials/v2';
const post = (path: string, body: object) => request(suite.issuer.app).post(path).set('X-API-Token', suite.token).send(body);

async function issue(options?: object) {
  const issuer = (await suite.issuer.deps.issuerKeys.current()).controller;
  const res = await post('/credentials/issue', {
    credential: {
      '@context': [V2, { level: 'https://example.org/vocab#level' }],
      type: ['VerifiableCredential'],
      issuer,
      credentialSubject: { id: `did:ethr:${SUBJECT}`, level: 'gold' },
    },
    ...(options ? { options } : {}),
  });
  expect(res.status).toBe(201);
  return res.body.verifiableCredential as Record<string, any>;
}

const bitstringEntryOf = (credential: Record<string, any>) =>
  [credential.credentialStatus].flat().find((entry: { type: string }) => entry.type === 'BitstringStatusListEntry');

/** What a verifier's document loader does: bundled contexts and did:keys locally, the list by HTTP GET. */
const verifierLoader = (app: Express) => async (url: string) => {
  if (!url.startsWith('http://localhost:4002/status-lists/')) return documentLoader(url);
  const res = await request(app).get(new URL(url).pathname).set('Accept', 'application/ld+json, application/json');
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  return { contextUrl: null, documentUrl: url, document: JSON.parse(res.text) };
};

/** Digital Bazaar's verifier, with its status list check; `status` is the credential's revocation bit. */
async function outsideVerifier(credential: object, app: Express = suite.issuer.app) {
  const bbs = new DataIntegrityProof({ cryptosuite: createVerifyCryptosuite() });
  const loader = verifierLoader(app);
  let status: boolean | undefined;
  const result = await vc.verifyCredential({
    credential,
    suite: bbs,
    documentLoader: loader,
    checkStatus: async (options) => {
      const checked = await checkStatus({ ...options, suite: bbs });
      status = checked.results?.[0]?.status;
      return checked;
    },
  });
  return { verified: result.verified, status, error: result.error };
}

describe('Bitstring Status List entries', () => {
  it('are carried beside the registry entry by default, and the list verifies with the unmodified libraries', async () => {
    const credential = await issue();
    const [registry, bitstring] = credential.credentialStatus;
    expect(registry).toMatchObject({ type: 'SvcRevocationRegistry', id: expect.stringMatching(/^urn:uuid:/) });
    expect(bitstring).toEqual({
      id: `${bitstring.statusListCredential}#${bitstring.statusListIndex}`,
      type: 'BitstringStatusListEntry',
      statusPurpose: 'revocation',
      statusListIndex: expect.stringMatching(/^\d+$/),
      statusListCredential: expect.stringMatching(/^http:\/\/localhost:4002\/status-lists\/[0-9a-f-]{36}$/),
    });

    const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/level'] });
    expect(derived.credentialStatus).toEqual(credential.credentialStatus);
    expect(await outsideVerifier(derived)).toEqual({ verified: true, status: false, error: undefined });
  });

  it('are served publicly, cacheable, signed by the issuer of the credentials in them, at least 16 KiB of bits', async () => {
    const credential = await issue();
    const url = new URL(bitstringEntryOf(credential).statusListCredential);
    const res = await request(suite.issuer.app).get(url.pathname);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vc/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers.etag).toMatch(/^"[0-9a-f-]{36}\.\d+"$/);
    const list = JSON.parse(res.text);
    expect(list).toMatchObject({
      '@context': [V2],
      id: url.href,
      type: ['VerifiableCredential', 'BitstringStatusListCredential'],
      issuer: credential.issuer,
      credentialSubject: { id: `${url.href}#list`, type: 'BitstringStatusList', statusPurpose: 'revocation', ttl: 300_000 },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'bbs-2023', proofPurpose: 'assertionMethod' },
    });
    expect((await decodeList(list.credentialSubject)).length).toBe(STATUS_LIST_LENGTH);
    const again = await request(suite.issuer.app).get(url.pathname).set('If-None-Match', res.headers.etag!);
    expect(again.status).toBe(304);
  });

  it('flip when the credential is revoked: a new list version, and every verifier sees the bit', async () => {
    const credential = await issue();
    const entry = bitstringEntryOf(credential);
    const path = new URL(entry.statusListCredential).pathname;
    const before = await request(suite.issuer.app).get(path);
    // A second replica on the same database serves the new list as soon as the revocation commits.
    const replica = buildIssuer();
    try {
      expect((await post('/credentials/revoke', { credential_id: credential.id })).status).toBe(200);
      for (const app of [suite.issuer.app, replica.app]) {
        const after = await request(app).get(path).set('If-None-Match', before.headers.etag!);
        expect(after.status).toBe(200);
        expect(after.headers.etag).not.toBe(before.headers.etag);
        const list = await decodeList(JSON.parse(after.text).credentialSubject);
        expect(list.getStatus(Number(entry.statusListIndex))).toBe(true);
      }
      const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/level'] });
      expect(await outsideVerifier(derived, replica.app)).toMatchObject({ verified: true, status: true });
    } finally {
      await replica.deps.close();
    }
    const verdict = await post('/credentials/verify', { verifiableCredential: credential });
    expect(verdict.status).toBe(400);
    expect(verdict.body.errors).toContainEqual(expect.objectContaining({ title: 'REVOKED' }));
  });

  it('are chosen per request: only the list entry, only the registry entry, or a clear 400', async () => {
    const listOnly = await issue({ credentialStatus: { type: 'BitstringStatusListEntry' } });
    expect(listOnly.credentialStatus).toMatchObject({ type: 'BitstringStatusListEntry' });
    expect((await issue({ credentialStatus: [{ type: 'SvcRevocationRegistry' }] })).credentialStatus).toMatchObject({ type: 'SvcRevocationRegistry' });
    const bad = await post('/credentials/issue', {
      credential: { '@context': [V2], type: ['VerifiableCredential'], issuer: listOnly.issuer, credentialSubject: { id: `did:ethr:${SUBJECT}` } },
      options: { credentialStatus: { type: 'StatusList2021Entry' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { field: 'body.options.credentialStatus.type', message: 'must be one of BitstringStatusListEntry, SvcRevocationRegistry' },
    ]);

    // Revocation is found through the list alone.
    expect((await post('/credentials/revoke', { credential_id: listOnly.id })).status).toBe(200);
    const verdict = await post('/credentials/verify', { verifiableCredential: listOnly });
    expect(verdict.body.errors).toEqual([expect.objectContaining({ title: 'REVOKED' })]);
  });

  it('reach VC 1.1 credentials that include the status list context (its terms are not in the v1 context)', async () => {
    // Issued as this issuer, again if another test file rotated the issuer key meanwhile.
    const v1 = (context: string[], options?: object) =>
      issueAsIssuer(
        suite.issuer,
        suite.token,
        (issuer) => ({
          '@context': ['https://www.w3.org/2018/credentials/v1', 'https://www.w3.org/2018/credentials/examples/v1', ...context],
          type: ['VerifiableCredential', 'UniversityDegreeCredential'],
          issuer,
          credentialSubject: { id: `did:ethr:${SUBJECT}`, degree: { type: 'BachelorDegree', name: 'Bachelor of Science' } },
        }),
        options,
      );
    const withList = await v1(['https://www.w3.org/ns/credentials/status/v1']);
    expect(withList.status).toBe(201);
    const derived = await deriveCredential({ credential: withList.body.verifiableCredential, selectivePointers: ['/credentialSubject/degree'] });
    expect(await outsideVerifier(derived)).toEqual({ verified: true, status: false, error: undefined });

    const without = await v1([]);
    expect(without.body.verifiableCredential.credentialStatus).toMatchObject({ type: 'SvcRevocationRegistry' });
    const asked = await v1([], { credentialStatus: { type: 'BitstringStatusListEntry' } });
    expect(asked.status).toBe(400);
    expect(asked.body.details).toEqual([
      { field: 'body.options.credentialStatus.type', message: expect.stringContaining('https://www.w3.org/ns/credentials/status/v1') },
    ]);
  });

  it('give every credential its own index, in an order that does not follow issuance', async () => {
    const credentials = await Promise.all(Array.from({ length: 12 }, () => issue({ credentialStatus: { type: 'BitstringStatusListEntry' } })));
    const places = credentials.map((c) => `${c.credentialStatus.statusListCredential}#${c.credentialStatus.statusListIndex}`);
    expect(new Set(places).size).toBe(places.length);

    const key = Buffer.alloc(32, 7);
    const indexes = Array.from({ length: STATUS_LIST_LENGTH }, (_, n) => permutedIndex(key, n));
    expect(new Set(indexes).size).toBe(STATUS_LIST_LENGTH);
    expect(indexes.every((i) => i >= 0 && i < STATUS_LIST_LENGTH)).toBe(true);
    // The first hundred issued are spread across the list, not packed at its start.
    expect(Math.max(...indexes.slice(0, 100))).toBeGreaterThan(STATUS_LIST_LENGTH / 2);
  });

  it('keep being signed by the key that issued their credentials after a key rotation', async () => {
    const credential = await issue();
    await rotateSigningKey((await arrangeOrg(suite.db)).ctx, { service: 'credential-issuer' });
    // Past the key snapshot's refresh, so this instance signs new credentials with the new key.
    const fresh = buildIssuer();
    try {
      expect((await post('/credentials/revoke', { credential_id: credential.id })).status).toBe(200);
      const list = JSON.parse((await request(fresh.app).get(new URL(bitstringEntryOf(credential).statusListCredential).pathname)).text);
      expect(list.issuer).toBe(credential.issuer);
      const derived = await deriveCredential({ credential, selectivePointers: ['/credentialSubject/level'] });
      expect(await outsideVerifier(derived, fresh.app)).toMatchObject({ verified: true, status: true });
    } finally {
      await fresh.deps.close();
    }
  });

  it('of other issuers are never fetched: verify says the status was not checked', async () => {
    const credential = await issue({ credentialStatus: { type: 'BitstringStatusListEntry' } });
    const elsewhere = { ...credential, credentialStatus: { ...credential.credentialStatus, statusListCredential: 'https://status.example/lists/1' } };
    const verdict = await post('/credentials/verify', { verifiableCredential: elsewhere });
    expect(verdict.body.warnings).toEqual([
      expect.objectContaining({ title: 'STATUS_RETRIEVAL_ERROR', detail: expect.stringContaining('https://status.example/lists/1') }),
    ]);
  });

  it('answer 404 for an unknown list and 400 for an id that is not one', async () => {
    expect((await request(suite.issuer.app).get('/status-lists/6d7f2d57-4b5a-4d63-9a0e-6f1c0f0e9b11')).status).toBe(404);
    const bad = await request(suite.issuer.app).get('/status-lists/nope');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: 'params.id', message: expect.any(String) }]);
  });
});
