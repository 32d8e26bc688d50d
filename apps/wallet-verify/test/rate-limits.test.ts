import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildService } from './helpers.js';

let db: Db;
const closers: (() => Promise<void>)[] = [];
beforeAll(() => {
  db = testDb();
});
afterAll(async () => {
  await Promise.all(closers.map((c) => c()));
  await db.$disconnect();
});

function clockAt(iso: string) {
  let now = Date.parse(iso);
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

function service(clock?: () => number, env: NodeJS.ProcessEnv = {}) {
  const built = buildService(env, clock);
  closers.push(() => built.deps.close());
  return built.app;
}

describe('rate limits', () => {
  it('carries the three headers with the hourly window arithmetic', async () => {
    const { key, human } = await arrange(db, { hourlyLimit: 5 });
    const clock = clockAt('2026-11-22T10:15:00Z');
    const app = service(clock);
    const res = await request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    expect(res.status).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('5');
    expect(res.headers['x-ratelimit-remaining']).toBe('4');
    expect(res.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-22T11:00:00Z') / 1000));
  });

  it('counts every answer of a valid key, 404s included, and answers 429 with Retry-After over the hourly limit', async () => {
    const { key } = await arrange(db, { hourlyLimit: 3 });
    const clock = clockAt('2026-11-22T10:59:30Z');
    const app = service(clock);
    const hit = () =>
      request(app).get('/v1/human/verify').query({ wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' }).set('X-SVC-API-Key', key.key);
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await hit()).status);
      clock.advance(1000);
    }
    expect(statuses).toEqual([404, 404, 404, 429]);
    const refused = await hit();
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expect(refused.headers['retry-after']).toBe('26');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    clock.advance(26_000); // the next hour
    const next = await hit();
    expect(next.status).toBe(404);
    expect(next.headers['x-ratelimit-remaining']).toBe('2');
    expect(next.headers['x-ratelimit-reset']).toBe(String(Date.parse('2026-11-22T12:00:00Z') / 1000));
  });

  it('tells the organization’s webhook outbox once per hour that a key reached its hourly limit', async () => {
    const { key, org } = await arrange(db, { hourlyLimit: 2 });
    const clock = clockAt('2026-11-22T10:30:00Z');
    const app = service(clock);
    const hit = () =>
      request(app).get('/v1/human/verify').query({ wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' }).set('X-SVC-API-Key', key.key);
    for (let i = 0; i < 6; i++) {
      await hit();
      clock.advance(1000);
    }
    const told = async () => {
      for (let i = 0; i < 100; i++) {
        const rows = await db.webhookEvent.findMany({ where: { organizationId: org.id } });
        if (rows.length) return rows;
        await new Promise((r) => setTimeout(r, 20));
      }
      return [];
    };
    const rows = await told();
    expect(rows.map((r) => [r.type, r.data])).toEqual([
      ['api_key.limit_reached', { api_key_id: key.id, hourly_limit: 2, resets_at: '2026-11-22T11:00:00.000Z' }],
    ]);
    // A second replica refusing the same key in the same hour adds nothing.
    const other = service(clock);
    await request(other).get('/v1/human/verify').query({ wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7' }).set('X-SVC-API-Key', key.key);
    await new Promise((r) => setTimeout(r, 200));
    expect(await db.webhookEvent.count({ where: { organizationId: org.id } })).toBe(1);
  });

  it('allows a burst of 10 per second, then 429 with Retry-After: 1, and recovers', async () => {
    const { key, human } = await arrange(db);
    const clock = clockAt('2026-11-22T10:00:00Z');
    const app = service(clock);
    const hit = () => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await hit()).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses[10]).toBe(429);
    const refused = await hit();
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.headers['x-ratelimit-remaining']).toBe('990');
    clock.advance(1000);
    expect((await hit()).status).toBe(200);
  });
});

describe('the platform maximum of a key’s limits', () => {
  it('holds a key whose own limits are above it (a tenant asked for 10 000 000 an hour) to the maximum', async () => {
    const { key, human } = await arrange(db, { hourlyLimit: 10_000_000, burstLimit: 100_000 });
    const clock = clockAt('2026-11-22T10:15:00Z');
    const app = service(clock, { API_KEY_MAX_HOURLY_LIMIT: '50', API_KEY_MAX_BURST_LIMIT: '3' });
    const hit = () => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await hit());
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('50');
    expect(answers[0]!.headers['x-ratelimit-remaining']).toBe('49');
    expect(answers[3]!.body).toEqual({ error: 'Rate limit exceeded' });
    expect(answers[3]!.headers['retry-after']).toBe('1');
  });
});

// Keys are self-service (up to 100 per organization): per-key limits alone would give an
// organization as much as it made keys for. Both stores a replica may run on.
describe.each([
  ['Redis (when the run has one)', {}],
  ['the in-process store', { REDIS_URL: '' }],
])('an organization’s budget, on %s', (_name, storeEnv) => {
  it('holds an organization with three keys to its budget: the 429 of a key’s own limits, Retry-After to the hour’s end', async () => {
    const { ctx, org, key, human } = await arrange(db);
    const more = [
      await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' }),
      await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' }),
    ];
    const keys = [key, ...more];
    const clock = clockAt('2026-11-22T10:15:00Z');
    const app = service(clock, { ...storeEnv, ORGANIZATION_HOURLY_LIMIT: '5' });
    const hit = (k: string) => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', k);
    const answers = [];
    for (let i = 0; i < 9; i++) {
      answers.push(await hit(keys[i % 3]!.key));
      clock.advance(1000);
    }
    // Each key allows 1000 an hour; together they get the organization's 5.
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429]);
    expect(answers.slice(0, 5).map((r) => r.headers['x-ratelimit-remaining'])).toEqual(['4', '3', '2', '1', '0']);
    const refused = answers[5]!;
    expect(refused.body).toEqual({ error: 'Rate limit exceeded' });
    expect(refused.headers['retry-after']).toBe(String(45 * 60 - 5));
    expect(refused.headers).toMatchObject({ 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '0' });
    // Another organization is not held back by this one.
    const other = await arrange(db);
    expect((await hit(other.key.key)).status).toBe(200);
    clock.advance(45 * 60 * 1000);
    expect((await hit(more[1]!.key)).status).toBe(200);
  });

  it('holds the keys together to the organization’s per-second budget', async () => {
    const { ctx, org, key, human } = await arrange(db);
    const second = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    const clock = clockAt('2026-11-22T10:15:00Z');
    const app = service(clock, { ...storeEnv, ORGANIZATION_BURST_LIMIT: '12' });
    const hit = (k: string) => request(app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', k);
    const statuses = [];
    // Two keys of 10 a second each: 20 in the same instant would pass per key; the organization gets 12.
    for (let i = 0; i < 20; i++) statuses.push((await hit(i % 2 ? second.key : key.key)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(12);
    const refused = await hit(second.key);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    clock.advance(1000);
    expect((await hit(key.key)).status).toBe(200);
  });
});

describe('several replicas sharing one store', () => {
  it('together allow exactly the limit under concurrent load', async () => {
    const { key, human } = await arrange(db, { hourlyLimit: 25, burstLimit: 1000 });
    // With REDIS_URL (CI) these are two replicas on one Redis; without it, one in-process store
    // cannot be shared, so the embedded run exercises a single replica's exactness instead.
    const replicas = process.env.REDIS_URL ? [service(), service()] : [service()];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        request(replicas[i % replicas.length]!)
          .get('/v1/human/verify')
          .query({ wallet_address: human.wallet })
          .set('X-SVC-API-Key', key.key),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(25);
    expect(results.filter((r) => r.status === 429)).toHaveLength(35);
    const remaining = results
      .filter((r) => r.status === 200)
      .map((r) => Number(r.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });
});
