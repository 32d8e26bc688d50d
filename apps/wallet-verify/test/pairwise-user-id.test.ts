import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, createOrg } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildService } from './helpers.js';

let db: Db;
let service: ReturnType<typeof buildService>;
beforeAll(() => {
  db = testDb();
  service = buildService({ WALLET_CACHE_TTL_SECONDS: '0', API_KEY_CACHE_TTL_SECONDS: '0' });
});
afterAll(async () => {
  await service.deps.close();
  await db.$disconnect();
});

const verify = (address: string, key: string) => request(service.app).get('/v1/human/verify').query({ wallet_address: address }).set('X-SVC-API-Key', key);

describe('GET /v1/human/verify user_id', () => {
  it('answers each organization its own stable UUID for the same wallet, never the user’s own id', async () => {
    const { ctx, org, key, human } = await arrange(db);
    const otherOrg = await createOrg(ctx, { name: 'Another Verifier', ownerEmail: human.email });
    const otherKey = await createApiKey(ctx, { org: otherOrg.id, permissions: 'wallet:verify' });

    const first = await verify(human.wallet, key.key);
    const again = await verify(human.wallet, key.key);
    const other = await verify(human.wallet, otherKey.key);
    expect([first.status, again.status, other.status]).toEqual([200, 200, 200]);
    expect(first.body.user_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(again.body.user_id).toBe(first.body.user_id);
    expect(other.body.user_id).not.toBe(first.body.user_id);
    expect([first.body.user_id, other.body.user_id]).not.toContain(human.id);
    // A second key of the same organization sees the same id.
    const sameOrgKey = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify' });
    expect((await verify(human.wallet, sameOrgKey.key)).body.user_id).toBe(first.body.user_id);
  });
});
