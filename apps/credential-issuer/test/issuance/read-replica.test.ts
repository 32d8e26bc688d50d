// DATABASE_READ_URL: GET /credentials reads from a streaming replica, except right after the
// organization's own issue or revoke (then the primary), and from the primary when the replica is
// down. The fallback is tested everywhere; the replica itself where this machine can make one.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPrismaClient, type Db, migrate } from '@svc/db';
import { canStartPostgresReplica, freePort, windowPassed, type StartedPostgresReplica, startPostgresReplica, testDb } from '@svc/testkit';
import request from 'supertest';
import { arrangeOrg, buildIssuer, issueAsIssuer, SUBJECT } from '../helpers.js';

const vc = (issuer: string) => ({
  '@context': ['https://www.w3.org/ns/credentials/v2', 'https://www.w3.org/ns/credentials/undefined-terms/v2'],
  type: ['VerifiableCredential'],
  issuer,
  credentialSubject: { id: `did:ethr:${SUBJECT}`, member_since: '2020-01-01' },
  id: `urn:uuid:${crypto.randomUUID()}`,
});

const listedIds = async (issuer: ReturnType<typeof buildIssuer>, key: string) => {
  const res = await request(issuer.app).get('/credentials').set('X-API-Token', key);
  expect(res.status).toBe(200);
  return (res.body.items as { id: string }[]).map((i) => i.id);
};

/** Issues a credential; its id. */
const issued = async (issuer: ReturnType<typeof buildIssuer>, key: string) => {
  const res = await issueAsIssuer(issuer, key, vc);
  expect(res.status).toBe(201);
  return res.body.verifiableCredential.id as string;
};

describe('GET /credentials with a replica that refuses connections', () => {
  let db: Db;
  let issuer: ReturnType<typeof buildIssuer>;
  beforeAll(async () => {
    db = testDb();
    issuer = buildIssuer({ DATABASE_READ_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/postgres`, DATABASE_READ_AFTER_WRITE_SECONDS: '5' });
  });
  afterAll(async () => {
    await issuer.deps.close();
    await db.$disconnect();
  });

  it('lists a credential just issued from the primary, and answers from the primary once the replica’s turn comes', async () => {
    const { org, token } = await arrangeOrg(db);
    const id = await issued(issuer, token.key);
    expect(await issuer.deps.reads.target(org.id)).toBe('primary');
    expect(await listedIds(issuer, token.key)).toEqual([id]);
    await windowPassed(issuer.deps.reads, org.id);
    expect(await issuer.deps.reads.target(org.id)).toBe('replica');
    expect(await listedIds(issuer, token.key)).toEqual([id]);
  });
});

// Defined only where a real replica can be made (the PostgreSQL binaries, root to run them as postgres).
if (canStartPostgresReplica()) {
  describe('GET /credentials against a real streaming replica', () => {
    let pg: StartedPostgresReplica;
    let db: Db;
    let issuer: ReturnType<typeof buildIssuer>;
    beforeAll(async () => {
      pg = await startPostgresReplica();
      await migrate(pg.primaryUrl);
      db = createPrismaClient(pg.primaryUrl, { poolSize: 2 });
      issuer = buildIssuer({ DATABASE_URL: pg.primaryUrl, DATABASE_READ_URL: pg.replicaUrl, DATABASE_READ_AFTER_WRITE_SECONDS: '5' });
      await pg.caughtUp();
    }, 60_000);
    afterAll(async () => {
      await issuer?.deps.close();
      await db?.$disconnect();
      await pg?.stop();
    });

    it('shows the caller’s own issue at once, then the replica’s lag after the window, until replay resumes', async () => {
      const { org, token } = await arrangeOrg(db);
      await pg.resumeReplay();
      await pg.pauseReplay();
      const id = await issued(issuer, token.key);
      expect(await listedIds(issuer, token.key)).toEqual([id]);
      await windowPassed(issuer.deps.reads, org.id);
      // The replica, paused, has not applied the issue: the list from there is behind.
      expect(await issuer.deps.reads.target(org.id)).toBe('replica');
      expect(await listedIds(issuer, token.key)).toEqual([]);
      await pg.resumeReplay();
      expect(await listedIds(issuer, token.key)).toEqual([id]);
    });
  });
}
