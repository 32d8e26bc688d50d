// One organization must not stall or refuse every other's issuance and verification: the work of a
// job is bounded before it is queued, and the signing threads are shared per organization, whatever
// number of API keys it has (keys are self-service). Each case reproduces the attack through HTTP
// with a pool scaled down to one thread.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrangeOrg, buildIssuer, SUBJECT } from '../helpers.js';

let db: Db;
let issuer: ReturnType<typeof buildIssuer>;
let token: string;
beforeAll(async () => {
  db = testDb();
  // A roomy deadline: these cases are about what is refused before signing, and what is signed
  // within the limits must not time out on a busy machine (the deadline has a case of its own).
  issuer = buildIssuer({ SIGNING_JOB_TIMEOUT_MS: '120000' });
  token = (await arrangeOrg(db)).token.key;
});
afterAll(async () => {
  await issuer.deps.close();
  await db.$disconnect();
});

// The attack's request: 31 kB, one claim holding an array of 4,400 short strings.
const strings = (n: number) => Array.from({ length: n }, (_, i) => `value-${i}`);
const post = (app: Parameters<typeof request>[0], path: string, key: string, body: object) => request(app).post(path).set('X-API-Token', key).send(body);

describe('the work of one job is bounded before it is queued', () => {
  it('refuses claims holding thousands of array elements at once, naming the field and the limit', async () => {
    // Refused before any signing thread sees it: no job reaches the pool.
    const jobs = jest.spyOn(issuer.deps.pool, 'run');
    const res = await post(issuer.app, '/credentials/issue', token, { subject_address: SUBJECT, claims: { kyc_passed: true, tags: strings(4400) } });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.claims.tags', message: expect.stringMatching(/more than 500 statements .*at most 500/) }]);
    expect(jobs).not.toHaveBeenCalled();
    // Nested values count too.
    const nested = await post(issuer.app, '/credentials/issue', token, {
      subject_address: SUBJECT,
      claims: { a: Array.from({ length: 300 }, (_, i) => ({ n: i })) },
    });
    expect(nested.status).toBe(400);
    expect(nested.body.details[0].field).toBe('body.claims.a');
    expect(jobs).not.toHaveBeenCalled();
    jobs.mockRestore();
    // Up to the limit is signed as before.
    const within = await post(issuer.app, '/credentials/issue', token, { subject_address: SUBJECT, claims: { tags: strings(400) } });
    expect(within.status).toBe(200);
  });

  it('refuses as much on the VC API shape, verify, derive and presentations verify', async () => {
    const did = (await issuer.deps.issuerKeys.current()).controller;
    const credential = {
      '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
      type: ['VerifiableCredential'],
      issuer: did,
      credentialSubject: { id: `did:ethr:${SUBJECT}`, tags: strings(4400) },
    };
    const issue = await post(issuer.app, '/credentials/issue', token, { credential });
    expect(issue.status).toBe(400);
    expect(issue.body.details[0]).toEqual({ field: 'body.credential.credentialSubject.tags', message: expect.stringMatching(/at most 500/) });
    // Many subjects, each within the claims' limit, are bounded as one credential.
    const many = await post(issuer.app, '/credentials/issue', token, {
      credential: { ...credential, credentialSubject: Array.from({ length: 5 }, (_, i) => ({ id: `did:example:${i}`, tags: strings(300) })) },
    });
    expect(many.status).toBe(400);
    expect(many.body.details).toContainEqual({ field: 'body.credential.credentialSubject', message: expect.stringMatching(/at most 1000/) });
    const signed = { ...credential, id: 'urn:uuid:00000000-0000-4000-8000-000000000000', proof: { type: 'DataIntegrityProof', proofValue: 'u' } };
    for (const [path, body, field] of [
      ['/credentials/verify', { verifiableCredential: signed }, 'body.verifiableCredential.credentialSubject'],
      ['/credentials/verify', { credential: signed }, 'body.credential.credentialSubject'],
      [
        '/credentials/derive',
        { verifiableCredential: signed, options: { selectivePointers: ['/credentialSubject/id'] } },
        'body.verifiableCredential.credentialSubject',
      ],
      [
        '/presentations/verify',
        {
          verifiablePresentation: { '@context': ['https://www.w3.org/ns/credentials/v2'], type: ['VerifiablePresentation'], verifiableCredential: [signed] },
          options: { challenge: 'c' },
        },
        'body.verifiablePresentation.verifiableCredential',
      ],
    ] as const) {
      const res = await post(issuer.app, path, token, body);
      expect({ path, status: res.status, details: res.body.details }).toEqual({
        path,
        status: 400,
        details: [{ field, message: expect.stringMatching(/more than 1000 statements .*at most 1000/) }],
      });
    }
  });
});

describe('the signing threads are shared per organization', () => {
  it('keeps serving another organization while one key floods the signing pool', async () => {
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_QUEUE_LIMIT: '64', SIGNING_JOBS_PER_ORGANIZATION: '4' });
    try {
      const a = await arrangeOrg(db);
      const flooder = await createApiKey(a.ctx, { org: a.org.id, permissions: 'credentials:issue', hourlyLimit: 100_000, burstLimit: 1000 });
      const b = await arrangeOrg(db);
      const flood = Array.from({ length: 40 }, (_, i) =>
        request(small.app)
          .post('/credentials/issue')
          .set('X-API-Token', flooder.key)
          .send({ subject_address: SUBJECT, claims: { n: i } }),
      );
      const other = request(small.app)
        .post('/credentials/issue')
        .set('X-API-Token', b.token.key)
        .send({ subject_address: SUBJECT, claims: { n: 'b' } });
      const [otherRes, ...floodRes] = await Promise.all([other, ...flood]);
      expect(otherRes.status).toBe(200);
      expect(floodRes.map((r) => r.status)).toContain(503);
    } finally {
      await small.deps.close();
    }
  });

  it('one organization flooding with two keys cannot refuse another organization’s issue', async () => {
    // SIGNING_QUEUE_PER_KEY is the per-key share of earlier releases, which one organization's two keys filled.
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_QUEUE_LIMIT: '4', SIGNING_QUEUE_PER_KEY: '2', SIGNING_JOBS_PER_ORGANIZATION: '2' });
    try {
      const a = await arrangeOrg(db);
      const second = await createApiKey(a.ctx, { org: a.org.id, permissions: 'credentials:issue', hourlyLimit: 100_000, burstLimit: 1000 });
      const b = await arrangeOrg(db);
      const flood = [a.token.key, second.key].flatMap((key) =>
        Array.from({ length: 12 }, (_, i) => post(small.app, '/credentials/issue', key, { subject_address: SUBJECT, claims: { n: i, tags: strings(100) } })),
      );
      // Organization A's requests reach the pool first.
      const floodDone = Promise.all(flood);
      const deadline = Date.now() + 10_000;
      while (small.deps.pool.pending < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      const other = await post(small.app, '/credentials/issue', b.token.key, { subject_address: SUBJECT, claims: { n: 'b' } });
      const floodStatuses = (await floodDone).map((r) => r.status);
      expect({ status: other.status, error: other.body.error }).toEqual({ status: 200, error: undefined });
      expect(floodStatuses).toContain(503);
      expect(floodStatuses.filter((s) => s === 200).length).toBeGreaterThan(0);
    } finally {
      await small.deps.close();
    }
  });

  it('verifying counts against the organization’s share too, and the refusal says so', async () => {
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_QUEUE_LIMIT: '8', SIGNING_JOBS_PER_ORGANIZATION: '1' });
    try {
      const a = await arrangeOrg(db);
      const issued = (await post(small.app, '/credentials/issue', a.token.key, { subject_address: SUBJECT, claims: { n: 1 } })).body.credential;
      const results = await Promise.all(Array.from({ length: 4 }, () => post(small.app, '/credentials/verify', a.token.key, { credential: issued })));
      const statuses = results.map((r) => r.status);
      expect(statuses).toContain(200);
      expect(statuses).toContain(503);
      expect(results.find((r) => r.status === 503)!.body).toMatchObject({
        error: 'signing_queue_full',
        error_description: expect.stringMatching(/organization/),
      });
    } finally {
      await small.deps.close();
    }
  });
});

describe('a job past its deadline', () => {
  it('answers 503 signing_timeout, and the thread is replaced: the next issue succeeds', async () => {
    const small = buildIssuer({ SIGNING_WORKERS: '1', SIGNING_JOB_TIMEOUT_MS: '1500' });
    try {
      const did = (await small.deps.issuerKeys.current()).controller;
      // Within the limits, but on a fresh thread (generators not yet computed) longer than 1.5 s.
      const heavy = {
        '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
        type: ['VerifiableCredential'],
        issuer: did,
        credentialSubject: { id: `did:ethr:${SUBJECT}`, tags: strings(490) },
      };
      const started = Date.now();
      const res = await post(small.app, '/credentials/issue', token, { credential: heavy });
      const heavyMs = Date.now() - started;
      expect({ status: res.status, error: res.body.error }).toEqual({ status: 503, error: 'signing_timeout' });
      expect(res.headers['retry-after']).toBe('1');
      expect(heavyMs).toBeLessThan(5000);
      expect(small.deps.pool.timedOut).toBe(1);
      const next = await post(small.app, '/credentials/issue', token, { subject_address: SUBJECT, claims: { n: 1 } });
      expect(next.status).toBe(200);
    } finally {
      await small.deps.close();
    }
  });
});
