import http from 'node:http';
import https from 'node:https';
import { describe, expect, it } from '@jest/globals';
import * as Bls from '@digitalbazaar/bls12-381-multikey';
import request from 'supertest';
import { deriveCredential, signCredential, verifyCredential } from '../src/vc/bbs.js';
import { documentLoader } from '../src/vc/document-loader.js';
import { arrangeOrg, buildIssuer, SUBJECT, useIssuer } from './helpers.js';

const suite = useIssuer();

const post = (path: string, body: unknown, key = suite.token) =>
  request(suite.issuer.app)
    .post(path)
    .set('X-API-Token', key)
    .send(body as object);

describe('malformed issue requests answer 400 naming the field, never 500', () => {
  it.each([
    [{ subject_address: SUBJECT.toLowerCase(), claims: {} }, 'body.subject_address', /EIP-55/],
    [{ subject_address: '0x123', claims: {} }, 'body.subject_address', /40 hexadecimal digits/],
    [{ claims: {} }, 'body.subject_address', /./],
    [{ subject_address: SUBJECT, claims: [1, 2] }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT, claims: 'yes' }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT }, 'body.claims', /JSON object/],
    [{ subject_address: SUBJECT, claims: {}, valid_until: 'tomorrow' }, 'body.valid_until', /ISO 8601/],
    [{ subject_address: SUBJECT, claims: {}, extra: 1 }, 'body', /extra/],
    [{ subject_address: SUBJECT, claims: { nickname: null } }, 'body.claims.nickname', /null/],
    [{ subject_address: SUBJECT, claims: { type: 'x' } }, 'body.claims.type', /reserved/],
    [{ subject_address: SUBJECT, claims: { id: 'x' } }, 'body.claims.id', /reserved/],
    [{ subject_address: SUBJECT, claims: { name: 'x' } }, 'body.claims.name', /reserved/],
    [{ subject_address: SUBJECT, claims: { profile: { exp: 1 } } }, 'body.claims.profile.exp', /reserved/],
    [{ subject_address: SUBJECT, claims: { '@id': 'x' } }, 'body.claims.@id', /not a claim name/],
    [{ subject_address: SUBJECT, claims: { 'http://x': 1 } }, 'body.claims.http://x', /not a claim name/],
    [{ subject_address: SUBJECT, claims: { tags: ['a', 'a'] } }, 'body.claims.tags[1]', /signed as sets/],
    [{ subject_address: SUBJECT, claims: { a: { b: { c: { d: { e: { f: { g: { h: { i: 1 } } } } } } } } } }, 'body.claims.a.b.c.d.e.f.g.h.i', /deeper than 8/],
  ])('%j', async (body, field, message) => {
    const res = await post('/credentials/issue', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.details).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  const vcBase = {
    '@context': ['https://www.w3.org/ns/credentials/v2'],
    type: ['VerifiableCredential'],
    issuer: 'did:key:zUC7xyz',
    credentialSubject: { member: true },
  };
  it.each([
    [{ ...vcBase, '@context': ['https://example.org/credentials/v1'] }, 'body.credential.@context', /must start with/],
    [{ ...vcBase, type: ['Other'] }, 'body.credential.type', /VerifiableCredential/],
    [{ ...vcBase, credentialSubject: 'me' }, 'body.credential.credentialSubject', /./],
    [{ ...vcBase, proof: { type: 'x' } }, 'body.credential.proof', /absent/],
    [{ ...vcBase, credentialSubject: { nickname: null } }, 'body.credential.credentialSubject.nickname', /null/],
    [vcBase, 'credential.issuer', /this issuer's DID/],
  ])('VC API %j', async (credential, field, message) => {
    const res = await post('/credentials/issue', { credential });
    expect(res.status).toBe(400);
    expect(res.body.details).toContainEqual({ field, message: expect.stringMatching(message) });
  });

  it('refuses a credential whose context is not bundled, without fetching it', async () => {
    const did = (await post('/credentials/issue', { subject_address: SUBJECT, claims: { a: 1 } })).body.credential.issuer;
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://example.com/private-context'],
      type: ['VerifiableCredential'],
      issuer: did,
      credentialSubject: { a: 1 },
    };
    const res = await post('/credentials/issue', { credential });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_credential', error_description: expect.stringContaining('https://example.com/private-context') });
  });

  it('answers 400 for invalid JSON and for a verify body without a credential', async () => {
    const bad = await request(suite.issuer.app)
      .post('/credentials/issue')
      .set('X-API-Token', suite.token)
      .set('content-type', 'application/json')
      .send('{"claims":');
    expect(bad.status).toBe(400);
    const verify = await post('/credentials/verify', { credential: 'x' });
    expect(verify.status).toBe(400);
    expect(verify.body.details[0].field).toBe('body.credential');
  });
});

describe('records', () => {
  it('lists the caller’s own credentials, filtered and paged, and hides other organizations’', async () => {
    const other = (await arrangeOrg(suite.db)).token.key;
    const second = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
    const mine = [];
    for (const address of [SUBJECT, SUBJECT, second])
      mine.push((await post('/credentials/issue', { subject_address: address, claims: { n: mine.length } }, other)).body.credential.id);
    const page1 = await request(suite.issuer.app).get('/credentials').query({ limit: 2 }).set('X-API-Token', other);
    expect(page1.body.items.map((i: { id: string }) => i.id)).toEqual([mine[2], mine[1]]);
    expect(page1.body.items[0]).toMatchObject({ subject_address: second, claim_names: ['n'], status: 'active', revoked_at: null });
    const page2 = await request(suite.issuer.app).get('/credentials').query({ limit: 2, cursor: page1.body.next_cursor }).set('X-API-Token', other);
    expect(page2.body).toEqual({ items: [expect.objectContaining({ id: mine[0] })], next_cursor: null });
    const filtered = await request(suite.issuer.app).get('/credentials').query({ subject_address: second }).set('X-API-Token', other);
    expect(filtered.body.items.map((i: { id: string }) => i.id)).toEqual([mine[2]]);
    // Another organization sees none of them and cannot revoke or read their status.
    const theirs = await request(suite.issuer.app).get('/credentials').set('X-API-Token', suite.token);
    expect(theirs.body.items.map((i: { id: string }) => i.id)).not.toContain(mine[0]);
    expect((await post('/credentials/revoke', { credential_id: mine[0] })).status).toBe(404);
    expect(
      (
        await request(suite.issuer.app)
          .get(`/credentials/${mine[0].slice(9)}/status`)
          .set('X-API-Token', suite.token)
      ).status,
    ).toBe(404);
    expect(
      (
        await request(suite.issuer.app)
          .get(`/credentials/${mine[0].slice(9)}/status`)
          .set('X-API-Token', other)
      ).body,
    ).toEqual({ credential_id: mine[0], revoked: false, revoked_at: null });
  });

  it('answers 400 for malformed ids, cursors and limits', async () => {
    expect((await post('/credentials/revoke', { credential_id: 'urn:uuid:nope' })).status).toBe(400);
    expect((await request(suite.issuer.app).get('/credentials/nope/status').set('X-API-Token', suite.token)).status).toBe(400);
    expect((await request(suite.issuer.app).get('/credentials').query({ cursor: 'garbage' }).set('X-API-Token', suite.token)).status).toBe(400);
    expect((await request(suite.issuer.app).get('/credentials').query({ limit: 500 }).set('X-API-Token', suite.token)).status).toBe(400);
  });
});

describe('GET /metrics', () => {
  it('counts credentials issued, newly revoked and verified', async () => {
    const own = buildIssuer();
    try {
      const send = (path: string, body: unknown) =>
        request(own.app)
          .post(path)
          .set('X-API-Token', suite.token)
          .send(body as object);
      const { credential } = (await send('/credentials/issue', { subject_address: SUBJECT, claims: { tier: 1 } })).body;
      await send('/credentials/revoke', { credential_id: credential.id });
      await send('/credentials/revoke', { credential_id: credential.id });
      expect((await send('/credentials/verify', { credential })).body.verified).toBe(false);
      const text = (await request(own.app).get('/metrics')).text;
      expect(text).toMatch(/^credentials_issued_total\{request="spec",service="credential-issuer"\} 1$/m);
      expect(text).toMatch(/^credentials_revoked_total\{service="credential-issuer"\} 1$/m);
      expect(text).toMatch(/^credentials_verified_total\{verified="false",service="credential-issuer"\} 1$/m);
    } finally {
      await own.deps.close();
    }
  });
});

describe('JSON-LD documents', () => {
  it('are never fetched: signing, deriving and verifying work with the network calls trapped', async () => {
    const attempts: string[] = [];
    const trap =
      (name: string) =>
      (..._args: unknown[]) => {
        attempts.push(name);
        throw new Error(`network use: ${name}`);
      };
    const saved = { fetch: globalThis.fetch, httpGet: http.get, httpRequest: http.request, httpsGet: https.get, httpsRequest: https.request };
    Object.assign(globalThis, { fetch: trap('fetch') });
    Object.assign(http, { get: trap('http.get'), request: trap('http.request') });
    Object.assign(https, { get: trap('https.get'), request: trap('https.request') });
    try {
      const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
      const exported = await pair.export({ publicKey: true, secretKey: true });
      const controller = `did:key:${exported.publicKeyMultibase}`;
      const key = { ...exported, id: `${controller}#${exported.publicKeyMultibase}`, controller };
      const credential = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
        id: 'urn:uuid:7d0b3f0e-4b1a-4c55-9f4c-0e6f5d8a1b2c',
        type: ['VerifiableCredential'],
        issuer: controller,
        validFrom: '2026-11-22T10:00:00Z',
        credentialSubject: { id: `did:ethr:${SUBJECT}`, member: true },
      };
      const signed = await signCredential({ credential, key, created: new Date('2026-11-22T10:00:00Z'), mandatoryPointers: ['/issuer'] });
      const derived = await deriveCredential({ credential: signed, selectivePointers: ['/credentialSubject/member'] });
      expect(await verifyCredential({ credential: derived })).toEqual({ verified: true, errors: [] });
    } finally {
      Object.assign(globalThis, { fetch: saved.fetch });
      Object.assign(http, { get: saved.httpGet, request: saved.httpRequest });
      Object.assign(https, { get: saved.httpsGet, request: saved.httpsRequest });
    }
    expect(attempts).toEqual([]);
    await expect(documentLoader('https://example.com/contexts/private/v1')).rejects.toThrow(/not bundled with the issuer and is never fetched/);
  });

  it('resolve did:keys that begin zUC6 as well as zUC7', async () => {
    let found: { publicKeyMultibase: string; secretKeyMultibase?: string } | undefined;
    for (let i = 0; i < 3000 && !found; i++) {
      const pair = await Bls.generateBbsKeyPair({ algorithm: Bls.ALGORITHMS.BBS_BLS12381_SHA256 });
      const exported = await pair.export({ publicKey: true, secretKey: true });
      if (exported.publicKeyMultibase.startsWith('zUC6')) found = exported;
    }
    expect(found).toBeDefined();
    const did = `did:key:${found!.publicKeyMultibase}`;
    const resolved = (await documentLoader(did)).document as { id: string };
    expect(resolved.id).toBe(did);
    const fresh = buildIssuer({ ISSUER_PUBLIC_KEY_MULTIBASE: found!.publicKeyMultibase, ISSUER_SECRET_KEY_MULTIBASE: found!.secretKeyMultibase! });
    try {
      const { credential } = (
        await request(fresh.app)
          .post('/credentials/issue')
          .set('X-API-Token', suite.token)
          .send({ subject_address: SUBJECT, claims: { a: 1 } })
      ).body;
      expect(credential.issuer).toBe(did);
      expect((await request(fresh.app).post('/credentials/verify').set('X-API-Token', suite.token).send({ credential })).body.verified).toBe(true);
    } finally {
      await fresh.deps.close();
    }
  });
});

describe('the signing pool', () => {
  it('keeps /health answering while a batch is being signed', async () => {
    let settled = 0;
    const batch = Array.from({ length: 6 }, () =>
      post('/credentials/issue', { subject_address: SUBJECT, claims: { a: 1, b: 'two', c: [3, 4] } }).then((r) => {
        settled++;
        return r.status;
      }),
    );
    await new Promise((r) => setTimeout(r, 50));
    const health = await request(suite.issuer.app).get('/health');
    expect(health.status).toBe(200);
    expect(settled).toBeLessThan(6);
    expect(await Promise.all(batch)).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('refuses with 503 and Retry-After when its queue is full, never building a backlog', async () => {
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_QUEUE_LIMIT: '1' });
    try {
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          request(small.app)
            .post('/credentials/issue')
            .set('X-API-Token', suite.token)
            .send({ subject_address: SUBJECT, claims: { a: 1 } }),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(2);
      const refused = results.filter((r) => r.status === 503);
      expect(refused.length).toBeGreaterThanOrEqual(1);
      expect(refused[0]!.headers['retry-after']).toBe('1');
      expect(refused[0]!.body.error).toBe('signing_queue_full');
    } finally {
      await small.deps.close();
    }
  });
});
