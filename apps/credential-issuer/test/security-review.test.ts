// Findings 8 and 9 of the security review, reproduced through HTTP.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrangeOrg, buildIssuer, SUBJECT } from './helpers.js';

let db: Db;
let issuer: ReturnType<typeof buildIssuer>;
beforeAll(() => {
  db = testDb();
  issuer = buildIssuer();
});
afterAll(async () => {
  await issuer.deps.close();
  await db.$disconnect();
});

// The issuer DID is read from the instance right before each request: another test file rotates
// the issuer key in the same database, and the instance picks the rotation up within 10 s.
const issue = async (key: string, credential: Record<string, unknown>) =>
  request(issuer.app)
    .post('/credentials/issue')
    .set('X-API-Token', key)
    .send({ credential: { issuer: (await issuer.deps.issuerKeys.current()).controller, ...credential }, options: {} });
const vc = (extra: Record<string, unknown> = {}) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  type: ['VerifiableCredential'],
  credentialSubject: { id: `did:ethr:${SUBJECT}`, member_since: '2020-01-01' },
  ...extra,
});

describe('finding 8: every credential the issuer signs is recorded and revocable', () => {
  it('records a caller-chosen URL id, lists it, revokes it, and verify then reports the revocation', async () => {
    const { token } = await arrangeOrg(db);
    const id = `https://example.org/credentials/${crypto.randomUUID()}`;
    const issued = await issue(token.key, vc({ id }));
    expect(issued.status).toBe(201);
    expect(issued.body.verifiableCredential.id).toBe(id);
    const listed = await request(issuer.app).get('/credentials').set('X-API-Token', token.key);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(id);
    const revoked = await request(issuer.app).post('/credentials/revoke').set('X-API-Token', token.key).send({ credential_id: id });
    expect(revoked.body).toMatchObject({ revoked: true, credential_id: id });
    expect(
      (
        await request(issuer.app)
          .get(`/credentials/${encodeURIComponent(id)}/status`)
          .set('X-API-Token', token.key)
      ).body,
    ).toMatchObject({ credential_id: id, revoked: true });
    const verdict = await request(issuer.app).post('/credentials/verify').set('X-API-Token', token.key).send({ credential: issued.body.verifiableCredential });
    expect(verdict.body.verified).toBe(false);
    expect(verdict.body.errors).toContain('the credential has been revoked');
  });

  it('refuses a caller-chosen credentialStatus: the status is always the issuer’s own', async () => {
    const { token } = await arrangeOrg(db);
    const res = await issue(token.key, vc({ credentialStatus: { id: 'https://attacker.example/status#1', type: 'BitstringStatusListEntry' } }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.credential.credentialStatus', message: expect.stringMatching(/set by this issuer/) }]);
    const own = await issue(token.key, vc());
    expect(own.body.verifiableCredential.credentialStatus[0]).toMatchObject({ type: 'SvcRevocationRegistry', id: expect.stringMatching(/^urn:uuid:/) });
  });

  it('answers 409 for an id the organization already used, and does not reveal another organization’s', async () => {
    const a = await arrangeOrg(db);
    const b = await arrangeOrg(db);
    const id = `urn:uuid:${crypto.randomUUID()}`;
    expect((await issue(a.token.key, vc({ id }))).status).toBe(201);
    const again = await issue(a.token.key, vc({ id }));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('credential_exists');
    // Another organization learns nothing: its request is signed and recorded as its own.
    const other = await issue(b.token.key, vc({ id }));
    expect(other.status).toBe(201);
    // Revoking one organization's credential leaves the other's valid.
    await request(issuer.app).post('/credentials/revoke').set('X-API-Token', b.token.key).send({ credential_id: id });
    const first = (
      await request(issuer.app)
        .get(`/credentials/${encodeURIComponent(id)}/status`)
        .set('X-API-Token', a.token.key)
    ).body;
    expect(first.revoked).toBe(false);
  });

  it('refuses an id that is not a URL instead of replacing it', async () => {
    const { token } = await arrangeOrg(db);
    for (const id of [null, ['urn:uuid:x'], 'not a url']) {
      const res = await issue(token.key, vc({ id }));
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('body.credential.id');
    }
  });
});

describe('finding 9: one key cannot block another organization’s issuance', () => {
  it('limits each key (hourly and burst) with X-RateLimit-* headers', async () => {
    const { ctx, org } = await arrangeOrg(db);
    const key = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue', hourlyLimit: 3, burstLimit: 10 });
    const statuses = [];
    let last: request.Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await request(issuer.app)
        .post('/credentials/issue')
        .set('X-API-Token', key.key)
        .send({ subject_address: SUBJECT, claims: { n: i } });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(last!.headers['x-ratelimit-limit']).toBe('3');
    expect(last!.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
  });

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
});
