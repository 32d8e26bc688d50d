// API tokens are self-service (up to 100 per organization) and their limits are the tenant's
// choice: the operator's platform maximum holds every token to it, and the organization's budget
// holds all of its tokens together.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb } from '@svc/testkit';
import request from 'supertest';
import { arrangeOrg, buildIssuer, SUBJECT } from '../helpers.js';

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

describe('a token’s own limits', () => {
  let issuer: ReturnType<typeof buildIssuer>;
  beforeAll(() => {
    issuer = issuerWith({});
  });

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
});

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

describe('an organization’s budget', () => {
  it('holds an organization with three tokens to its budget, and says so in the 429', async () => {
    const issuer = issuerWith({ ORGANIZATION_HOURLY_LIMIT: '4' });
    const { ctx, org, token } = await arrangeOrg(db);
    const more = [
      await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue' }),
      await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue' }),
    ];
    const tokens = [token, ...more];
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await ask(issuer, tokens[i % 3]!.key));
    expect(answers.map((r) => r.status)).toEqual([400, 400, 400, 400, 429, 429]);
    expect(answers[4]!.body).toMatchObject({
      error: 'rate_limited',
      error_description: 'This API token’s organization is over its hourly budget, which all of its tokens share',
    });
    expect(answers[4]!.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(answers[4]!.headers['retry-after'])).toBeGreaterThan(0);
    // Another organization issues on.
    expect((await ask(issuer, (await arrangeOrg(db)).token.key)).status).toBe(400);
  });
});
