import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, createOrg, createUser, disableApiKey, type AdminContext } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail } from '@svc/testkit';
import { ApiKeyAuthenticator } from '../src/index.js';

let db: Db;
let ctx: AdminContext;
let org: { id: string };
const authenticators: ApiKeyAuthenticator[] = [];

function authenticator(cacheTtlSeconds = 0) {
  const auth = new ApiKeyAuthenticator({ db, cacheTtlSeconds, lastUsedFlushSeconds: 3600, clock: { now: () => new Date() } });
  authenticators.push(auth);
  return auth;
}

beforeAll(async () => {
  db = testDb();
  ctx = { db, now: () => new Date() };
  const owner = await createUser(ctx, { email: uniqueEmail(), password: 'correct horse' });
  org = await createOrg(ctx, { name: 'Keys', ownerEmail: owner.email });
});
afterAll(async () => {
  await Promise.all(authenticators.map((a) => a.close()));
  await db.$disconnect();
});

describe('ApiKeyAuthenticator', () => {
  it('tells missing, unknown, disabled and active keys apart', async () => {
    const auth = authenticator();
    const key = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify', hourlyLimit: 7 });
    expect(await auth.authenticate(undefined)).toEqual({ outcome: 'missing' });
    expect(await auth.authenticate('')).toEqual({ outcome: 'missing' });
    expect(await auth.authenticate(['a', 'b'])).toEqual({ outcome: 'unknown' });
    expect(await auth.authenticate('svck_nope')).toEqual({ outcome: 'unknown' });
    expect(await auth.authenticate(key.key)).toMatchObject({ outcome: 'active', key: { id: key.id, hourlyLimit: 7, permissions: ['wallet:verify'] } });
    await disableApiKey(ctx, { id: key.id });
    expect(await auth.authenticate(key.key)).toMatchObject({ outcome: 'disabled', key: { id: key.id } });
  });

  it('serves a key from its cache within the TTL, so a disable shows after it', async () => {
    const auth = authenticator(300);
    const key = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    expect((await auth.authenticate(key.key)).outcome).toBe('active');
    await disableApiKey(ctx, { id: key.id });
    expect((await auth.authenticate(key.key)).outcome).toBe('active');
    expect((await authenticator(0).authenticate(key.key)).outcome).toBe('disabled');
  });

  it('flushes last_used_at in one batch and never moves it backwards', async () => {
    const auth = authenticator();
    const a = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    const b = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    const future = new Date(Date.now() + 3_600_000);
    await db.apiKey.update({ where: { id: b.id }, data: { lastUsedAt: future } });
    await auth.authenticate(a.key);
    await auth.authenticate(b.key);
    await auth.flush();
    const [ra, rb] = await Promise.all([a, b].map((k) => db.apiKey.findUniqueOrThrow({ where: { id: k.id } })));
    expect(ra!.lastUsedAt).toBeInstanceOf(Date);
    expect(rb!.lastUsedAt?.getTime()).toBe(future.getTime());
  });

  it('counts requests per key and hour, added up across flushes and replicas, disabled keys not at all', async () => {
    const [one, two] = [authenticator(), authenticator()];
    const a = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    const off = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    await disableApiKey(ctx, { id: off.id });
    for (let i = 0; i < 3; i++) await one.authenticate(a.key);
    await two.authenticate(a.key);
    await one.authenticate(off.key);
    await Promise.all([one.flush(), two.flush()]);
    await one.authenticate(a.key);
    await one.flush();
    const rows = await db.apiKeyUsage.findMany({ where: { apiKeyId: { in: [a.id, off.id] } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ apiKeyId: a.id, count: 5 });
    expect(rows[0]!.hour.getTime() % 3_600_000).toBe(0);
  });
});
