// API tokens are self-service and their limits are the tenant's choice: the operator's platform
// maximum holds every token to it.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrangeOrg, buildIssuer } from './helpers.js';

let db: Db;
const built: ReturnType<typeof buildIssuer>[] = [];
beforeAll(() => {
  db = testDb();
});
afterAll(async () => {
  await Promise.all(built.map((b) => b.deps.close()));
  await db.$disconnect();
});

function issuerWith(env: NodeJS.ProcessEnv) {
  const issuer = buildIssuer(env);
  built.push(issuer);
  return issuer;
}

// Counted like any request with a known active token, and refused before any signing: cheap.
const ask = (issuer: ReturnType<typeof buildIssuer>, token: string) =>
  request(issuer.app).post('/credentials/issue').set('X-API-Token', token).send({ subject_address: 'not an address' });

describe('the platform maximum of a token’s limits', () => {
  it('holds a token whose own limits are above it (a tenant asked for 10 000 000 an hour) to the maximum', async () => {
    const issuer = issuerWith({ API_KEY_MAX_HOURLY_LIMIT: '3', API_KEY_MAX_BURST_LIMIT: '100' });
    const { ctx, org } = await arrangeOrg(db);
    const token = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue', hourlyLimit: 10_000_000, burstLimit: 100_000 });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(issuer, token.key));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 429]);
    expect(answers[0]!.headers['x-ratelimit-limit']).toBe('3');
    expect(answers[3]!.body).toMatchObject({ error: 'rate_limited', error_description: 'This API token is over its hourly limit' });
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
  });
});
