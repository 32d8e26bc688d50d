// The capacity model's inputs, measured: how many PostgreSQL statements and Redis commands wallet
// verify costs per request once its caches are warm. infra/README.md ("Capacity model") prints the
// same figures; this test measures them and holds the page to them, so the page cannot drift from
// the code.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import { expectDocumented, measureHotPaths } from '@svc/testkit/capacity';
import request from 'supertest';
import { arrange, buildService } from '../helpers.js';

let db: Db;
let service: ReturnType<typeof buildService>;

beforeAll(() => {
  db = testDb();
  // The caches as deployed (wallets 10 s, keys 5 s); one PostgreSQL, as the page's figures are.
  service = buildService({ DATABASE_READ_URL: '' });
});
afterAll(async () => {
  await service.deps.close();
  await db.$disconnect();
});

describe('statements and Redis commands per request (infra/README.md, "Capacity model")', () => {
  it('are what the capacity model says, for every hot path', async () => {
    // The platform's highest burst, so the rounds stay within it: what a limit costs is counted, not what it refuses.
    const { key, human } = await arrange(db, { burstLimit: 100 });
    const measured = await measureHotPaths(service.deps.store, [
      {
        path: 'GET /v1/human/verify',
        send: () => request(service.app).get('/v1/human/verify').query({ wallet_address: human.wallet }).set('X-SVC-API-Key', key.key),
      },
    ]);
    expectDocumented('wallet verify', measured);
  });
});
