// Every credential the issuer signs is recorded and revocable, whoever chose its id; each
// organization sees, revokes and reads the status of its own only.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrangeOrg, SUBJECT, useIssuer } from '../helpers.js';

const suite = useIssuer();

const post = (path: string, body: unknown, key = suite.token) =>
  request(suite.issuer.app)
    .post(path)
    .set('X-API-Token', key)
    .send(body as object);

// The issuer DID is read from the instance right before each request: another test file rotates
// the issuer key in the same database, and the instance picks the rotation up within 10 s.
const issue = async (key: string, credential: Record<string, unknown>) =>
  request(suite.issuer.app)
    .post('/credentials/issue')
    .set('X-API-Token', key)
    .send({ credential: { issuer: (await suite.issuer.deps.issuerKeys.current()).controller, ...credential }, options: {} });
const vc = (extra: Record<string, unknown> = {}) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  type: ['VerifiableCredential'],
  credentialSubject: { id: `did:ethr:${SUBJECT}`, member_since: '2020-01-01' },
  ...extra,
});

describe('every credential the issuer signs is recorded and revocable', () => {
  it('records a caller-chosen URL id, lists it, revokes it, and verify then reports the revocation', async () => {
    const { token } = await arrangeOrg(suite.db);
    const id = `https://example.org/credentials/${crypto.randomUUID()}`;
    const issued = await issue(token.key, vc({ id }));
    expect(issued.status).toBe(201);
    expect(issued.body.verifiableCredential.id).toBe(id);
    const listed = await request(suite.issuer.app).get('/credentials').set('X-API-Token', token.key);
    expect(listed.body.items.map((i: { id: string }) => i.id)).toContain(id);
    const revoked = await request(suite.issuer.app).post('/credentials/revoke').set('X-API-Token', token.key).send({ credential_id: id });
    expect(revoked.body).toMatchObject({ revoked: true, credential_id: id });
    expect(
      (
        await request(suite.issuer.app)
          .get(`/credentials/${encodeURIComponent(id)}/status`)
          .set('X-API-Token', token.key)
      ).body,
    ).toMatchObject({ credential_id: id, revoked: true });
    const verdict = await request(suite.issuer.app)
      .post('/credentials/verify')
      .set('X-API-Token', token.key)
      .send({ credential: issued.body.verifiableCredential });
    expect(verdict.body.verified).toBe(false);
    expect(verdict.body.errors).toContain('the credential has been revoked');
  });

  it('refuses a caller-chosen credentialStatus: the status is always the issuer’s own', async () => {
    const { token } = await arrangeOrg(suite.db);
    const res = await issue(token.key, vc({ credentialStatus: { id: 'https://attacker.example/status#1', type: 'BitstringStatusListEntry' } }));
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.credential.credentialStatus', message: expect.stringMatching(/set by this issuer/) }]);
    const own = await issue(token.key, vc());
    expect(own.body.verifiableCredential.credentialStatus[0]).toMatchObject({ type: 'SvcRevocationRegistry', id: expect.stringMatching(/^urn:uuid:/) });
  });

  it('answers 409 for an id the organization already used, and does not reveal another organization’s', async () => {
    const a = await arrangeOrg(suite.db);
    const b = await arrangeOrg(suite.db);
    const id = `urn:uuid:${crypto.randomUUID()}`;
    expect((await issue(a.token.key, vc({ id }))).status).toBe(201);
    const again = await issue(a.token.key, vc({ id }));
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('credential_exists');
    // Another organization learns nothing: its request is signed and recorded as its own.
    const other = await issue(b.token.key, vc({ id }));
    expect(other.status).toBe(201);
    // Revoking one organization's credential leaves the other's valid.
    await request(suite.issuer.app).post('/credentials/revoke').set('X-API-Token', b.token.key).send({ credential_id: id });
    const first = (
      await request(suite.issuer.app)
        .get(`/credentials/${encodeURIComponent(id)}/status`)
        .set('X-API-Token', a.token.key)
    ).body;
    expect(first.revoked).toBe(false);
  });

  it('refuses an id that is not a URL instead of replacing it', async () => {
    const { token } = await arrangeOrg(suite.db);
    for (const id of [null, ['urn:uuid:x'], 'not a url']) {
      const res = await issue(token.key, vc({ id }));
      expect(res.status).toBe(400);
      expect(res.body.details[0].field).toBe('body.credential.id');
    }
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
