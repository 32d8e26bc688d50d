// DATABASE_READ_URL: the developer lists read from a streaming replica, except right after the
// organization's own write (then the primary), and from the primary when the replica is down. The
// routing decision is tested everywhere; the replica itself (initdb + pg_basebackup, run as the
// `postgres` OS user) where this machine has the PostgreSQL binaries and root.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { createPrismaClient, type Db, migrate } from '@svc/db';
import { createLogger } from '@svc/http';
import { createStore } from '@svc/kv';
import { ReplicaReads } from '@svc/runtime';
import { canStartPostgresReplica, freePort, type StartedPostgresReplica, startPostgresReplica, testDb, windowPassed } from '@svc/testkit';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { buildIdp } from '../helpers.js';
import { as, confidentialApp, developer } from './developers.js';

const logger = createLogger({ name: 'read-replica-test', level: 'silent' });

describe('the routing of lag-tolerant reads', () => {
  let primary: Db;
  let unreachable: Db;
  beforeAll(async () => {
    primary = testDb();
    // A port nothing listens on: a replica that refuses connections.
    unreachable = createPrismaClient(`postgresql://postgres@127.0.0.1:${await freePort()}/postgres`, { poolSize: 1 });
  });
  afterAll(async () => {
    await Promise.all([primary.$disconnect(), unreachable.$disconnect()]);
  });

  const routing = (replica: Db | undefined, now: () => number) =>
    new ReplicaReads({ primary, replica, cache: createStore({ namespace: 'rr', clock: now }).cache, afterWriteSeconds: 5, logger, now });

  it('reads from the primary when no replica is configured', async () => {
    const reads = routing(undefined, Date.now);
    expect(reads.enabled).toBe(false);
    await reads.wrote('org-a');
    expect(await reads.target('org-a')).toBe('primary');
  });

  it('keeps an organization on the primary for the window after its own write, and only that organization', async () => {
    let now = 1_000_000;
    const reads = routing(primary, () => now);
    expect(await reads.target('org-a')).toBe('replica');
    await reads.wrote('org-a');
    expect(await reads.target('org-a')).toBe('primary');
    expect(await reads.target('org-b')).toBe('replica');
    now += 4_900;
    expect(await reads.target('org-a')).toBe('primary');
    now += 200;
    expect(await reads.target('org-a')).toBe('replica');
  });

  it('answers from the primary when the replica refuses connections, and skips the replica for a while after', async () => {
    let now = 1_000_000;
    const reads = routing(unreachable, () => now);
    expect(await reads.target('org-a')).toBe('replica');
    const rows = await reads.read('org-a', (db) => db.$queryRaw<{ answer: number }[]>`SELECT 42 AS answer`);
    expect(rows).toEqual([{ answer: 42 }]);
    expect(await reads.target('org-a')).toBe('primary');
    now += 5_001;
    expect(await reads.target('org-a')).toBe('replica');
  });

  it('does not hide a wrong query behind the fallback', async () => {
    const reads = routing(primary, Date.now);
    await expect(reads.read('org-a', (db) => db.$queryRaw`SELECT * FROM no_such_table`)).rejects.toThrow(/no_such_table/);
  });
});

// Defined only where a real replica can be made (the PostgreSQL binaries, root to run them as postgres).
if (canStartPostgresReplica()) {
  describe('against a real streaming replica', () => {
    let pg: StartedPostgresReplica;
    let idp: ReturnType<typeof buildIdp>;
    let primaryDb: Db;
    let dev: Awaited<ReturnType<typeof developer>>;
    let firstClientId: string;
    const listed = async () => {
      const res = await request(idp.app).get('/v2/developer/applications').set(as(dev.session));
      expect(res.status).toBe(200);
      return (res.body.items as { client_id: string }[]).map((a) => a.client_id);
    };

    beforeAll(async () => {
      pg = await startPostgresReplica();
      await migrate(pg.primaryUrl);
      await pg.caughtUp();
      primaryDb = createPrismaClient(pg.primaryUrl, { poolSize: 2 });
      // A short window keeps the test quick; the default (5 s) is argued in infra/README.md.
      idp = buildIdp({
        DATABASE_URL: pg.primaryUrl,
        DATABASE_READ_URL: pg.replicaUrl,
        DATABASE_READ_AFTER_WRITE_SECONDS: '5',
        CONSOLE_SIGNUP: 'open',
      });
    }, 60_000);
    afterAll(async () => {
      await idp?.deps.close();
      await primaryDb?.$disconnect();
      await pg?.stop();
    });

    it('lists a new application at once: a read after the caller’s own write is on the primary', async () => {
      await pg.pauseReplay();
      dev = await developer(idp.app);
      const created = await request(idp.app).post('/v2/developer/applications').set(as(dev.session)).send(confidentialApp);
      expect(created.status).toBe(201);
      firstClientId = created.body.client_id;
      expect(await idp.deps.reads.target(dev.organizationId)).toBe('primary');
      expect(await listed()).toEqual([firstClientId]);
      // The replica, paused, has none of it: the list above cannot have come from there.
      expect(await pg.query('replica', 'SELECT 1 FROM "Organization" WHERE id = $1', [dev.organizationId])).toEqual([]);
    });

    it('lists from the replica once the window has passed: its lag shows, then ends', async () => {
      await pg.resumeReplay();
      await pg.pauseReplay();
      // Another path (the admin CLI) writes on the primary: no write of this caller's API.
      const other = await createClient(
        { db: primaryDb, now: () => new Date() },
        { org: dev.organizationId, name: 'Made by the admin CLI', redirectUris: ['https://app.example/cb'], scopes: 'openid' },
      );
      await windowPassed(idp.deps.reads, dev.organizationId);
      expect(await idp.deps.reads.target(dev.organizationId)).toBe('replica');
      expect(await listed()).toEqual([firstClientId]);
      await pg.resumeReplay();
      expect(await listed()).toEqual([firstClientId, other.client_id]);
    });

    it('keeps the console’s dashboard on the primary after a console action', async () => {
      await pg.pauseReplay();
      await windowPassed(idp.deps.reads, dev.organizationId);
      expect(await idp.deps.reads.target(dev.organizationId)).toBe('replica');
      // The console's pages are no operations of the API: driven on the bare app.
      const app = createApp(idp.deps);
      const cookie = `__Host-svc_session=${dev.session}`;
      const csrf = csrfField((await request(app).get('/console').set('Cookie', cookie)).text);
      const made = await request(app)
        .post('/console/applications')
        .set('Cookie', cookie)
        .set(fromOwnPage(idp.deps.config.issuer))
        .type('form')
        .send({ csrf_token: csrf, name: 'Made in the console', redirect_uris: 'https://app.example/console', scopes: 'openid', type: 'public' });
      expect(made.status).toBe(303);
      expect(await idp.deps.reads.target(dev.organizationId)).toBe('primary');
      expect((await request(app).get('/console').set('Cookie', cookie)).text).toContain('Made in the console');
      expect((await listed()).length).toBe(3);
      await pg.resumeReplay();
    });

    it('answers from the primary when the replica cancels a read to go on replaying', async () => {
      // The replica waits for no read before replaying (max_standby_streaming_delay = 0), and the
      // primary takes a lock the read's table must give up there: PostgreSQL cancels the read (40001).
      await pg.query('replica', 'ALTER SYSTEM SET max_standby_streaming_delay = 0');
      await pg.query('replica', 'SELECT pg_reload_conf()');
      await pg.query('primary', 'CREATE TABLE conflict_probe (id int); INSERT INTO conflict_probe VALUES (1)');
      await pg.caughtUp();
      await windowPassed(idp.deps.reads, dev.organizationId);
      const answeredBy: string[] = [];
      try {
        const read = idp.deps.reads.read(dev.organizationId, async (db) => {
          const [row] = await db.$queryRaw<{ recovery: boolean }[]>`SELECT pg_is_in_recovery() AS recovery, pg_sleep(1.5)::text AS slept FROM conflict_probe`;
          answeredBy.push(row!.recovery ? 'replica' : 'primary');
          return row;
        });
        // Once the read holds its lock on the replica.
        await new Promise((resolve) => setTimeout(resolve, 500));
        await pg.query('primary', 'BEGIN; LOCK TABLE conflict_probe IN ACCESS EXCLUSIVE MODE; COMMIT');
        expect(await read).toMatchObject({ recovery: false });
        expect(answeredBy).toEqual(['primary']);
        // The replica is not skipped after it: the next list reads it again.
        expect(await idp.deps.reads.target(dev.organizationId)).toBe('replica');
      } finally {
        await pg.query('replica', 'ALTER SYSTEM RESET max_standby_streaming_delay');
        await pg.query('replica', 'SELECT pg_reload_conf()');
      }
    });

    it('answers from the primary while the replica is down, and stays ready', async () => {
      await pg.stopReplica();
      expect((await listed()).length).toBe(3);
      for (const path of ['/v2/developer/api-keys', '/v2/developer/webhooks', '/v2/developer/actions']) {
        expect((await request(idp.app).get(path).set(as(dev.session))).status).toBe(200);
      }
      const ready = await request(idp.app).get('/ready');
      expect(ready.body.checks.filter((check: { ok: boolean }) => !check.ok)).toEqual([]);
      expect(ready.status).toBe(200);
      expect(ready.body.checks).toContainEqual(
        expect.objectContaining({ name: 'database_replica', ok: true, details: expect.objectContaining({ reachable: false }) }),
      );
    });
  });
}
