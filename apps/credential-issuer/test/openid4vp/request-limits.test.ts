// What an organization's presentation requests may hold, and for how long: so many open at once,
// their results kept a day after their 300 s, the key of one that expired unanswered dropped.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { purgePresentationRequests } from '../../src/openid4vp/requests/purge.js';
import { arrangeOrg, buildIssuer } from '../helpers.js';

let db: Db;
let issuer: ReturnType<typeof buildIssuer>;
let token: string;
let organizationId: string;
beforeAll(async () => {
  db = testDb();
  issuer = buildIssuer({ PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION: '2' });
  const arranged = await arrangeOrg(db, 'presentations:verify');
  token = arranged.token.key;
  organizationId = arranged.org.id;
});
afterAll(async () => {
  await issuer?.deps.close();
  await db?.$disconnect();
});

const ask = () =>
  request(issuer.app)
    .post('/presentation-requests')
    .set('X-API-Token', token)
    .send({ presets: ['age_over_18'] });

describe('presentation requests of one organization', () => {
  it('holds PRESENTATION_REQUESTS_OPEN_PER_ORGANIZATION open at once, whatever its number of keys', async () => {
    expect((await ask()).status).toBe(201);
    expect((await ask()).status).toBe(201);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    const second = await createApiKey({ db, now: () => new Date() }, { org: organizationId, permissions: 'presentations:verify' });
    expect(
      (
        await request(issuer.app)
          .post('/presentation-requests')
          .set('X-API-Token', second.key)
          .send({ presets: ['age_over_18'] })
      ).status,
    ).toBe(429);
    // Expired requests no longer count.
    await db.presentationRequest.updateMany({ where: { organizationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect((await ask()).status).toBe(201);
  });

  it('drops the key of one that expired unanswered, and the row a day after its expiry', async () => {
    const now = new Date();
    const rows = await db.presentationRequest.findMany({ where: { organizationId, expiresAt: { lt: now } }, select: { id: true } });
    expect(rows.length).toBeGreaterThan(0);
    await purgePresentationRequests(db, now, 24 * 3600_000);
    for (const row of await db.presentationRequest.findMany({ where: { id: { in: rows.map((r) => r.id) } } })) expect(row.responseKey).toEqual({});
    await purgePresentationRequests(db, new Date(now.getTime() + 24 * 3600_000 + 1000), 24 * 3600_000);
    expect(await db.presentationRequest.count({ where: { id: { in: rows.map((r) => r.id) } } })).toBe(0);
  });
});
