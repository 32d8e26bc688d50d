import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { setPalmVerified } from '@svc/admin';
import request from 'supertest';
import { PresetCache, type CacheOutcome } from '../../src/data-access/preset-cache.js';
import { arrangeData } from '../data-helpers.js';
import { basic, buildIdp, eventually, useIdp } from '../helpers.js';

const suite = useIdp();
const SCOPE = 'openid identity:read profile.full kyc:read';

/** A replica: its own app, store connection and observed cache, on the same database and Redis. */
function replica() {
  const idp = buildIdp();
  const outcomes: CacheOutcome[] = [];
  idp.deps.presetCache = new PresetCache(idp.deps.db, idp.deps.store.cache, idp.deps.logger, (o) => outcomes.push(o));
  return { ...idp, outcomes };
}

let a: ReturnType<typeof replica>;
let b: ReturnType<typeof replica>;
beforeAll(() => {
  a = replica();
  b = replica();
});
afterAll(async () => {
  await a.deps.close();
  await b.deps.close();
});

const read = (r: ReturnType<typeof replica>, token: string, presets: string[]) =>
  request(r.app).post('/v2/presets/batch').set('Authorization', `Bearer ${token}`).send({ presets });

describe('the preset cache', () => {
  it('is filled once and then served to every replica sharing Redis', async () => {
    const d = await arrangeData(suite.db, a.app, { scope: SCOPE });
    a.outcomes.length = b.outcomes.length = 0;
    expect((await read(a, d.accessToken, ['nationality'])).body.results[0].value).toBe('DE');
    expect((await read(a, d.accessToken, ['kyc_passed'])).body.results[0].value).toBe(true);
    expect(a.outcomes).toEqual(['miss', 'hit']);
    expect((await read(b, d.accessToken, ['nationality'])).body.results[0].value).toBe('DE');
    // In-process stores are per replica; Redis (CI) is shared.
    expect(b.outcomes).toEqual([b.deps.store.kind === 'redis' ? 'hit' : 'miss']);
  });

  it('holds only what the authorization’s scopes can read, for at most the data window', async () => {
    const d = await arrangeData(suite.db, a.app, { scope: SCOPE, presetCacheTtl: 120 });
    await read(a, d.accessToken, ['age']);
    const entry = await a.deps.store.cache.get(`presets:${d.authorizationId}`);
    expect(entry).toContain('1990-04-12'); // the parent of age, which the client still cannot read
    expect(entry).toContain('"nationality"');
    expect(entry).not.toContain('net_worth_total');
    expect(entry).not.toContain('proof_of_assets');
    expect((await read(a, d.accessToken, ['date_of_birth'])).body.errors[0].error.error_code).toBe('E4003');
  });

  // Each replica learns of the change when PostgreSQL delivers its notification (the grant
  // cache's bound, infra/README.md): milliseconds, more on a loaded machine, so the test waits for it.
  it('shows a change to the user’s data on every replica once PostgreSQL announces it', async () => {
    const d = await arrangeData(suite.db, a.app, { scope: SCOPE });
    expect((await read(a, d.accessToken, ['is_human'])).body.results[0].value).toBe(true);
    await read(b, d.accessToken, ['is_human']);
    await setPalmVerified(d.ctx, { email: d.user.email, verified: false });
    b.outcomes.length = 0;
    await eventually(async () => (await read(b, d.accessToken, ['is_human'])).body.results[0].value === false, 2_000);
    expect((await read(a, d.accessToken, ['is_human', 'palm_verified'])).body.results.map((r: { value: unknown }) => r.value)).toEqual([false, false]);
    // The read that saw the change found B's entry older than the user's data and reloaded it.
    expect(b.outcomes.at(-1)).toBe('stale');
  });

  it('refuses a revoked authorization on every replica and drops its entry', async () => {
    const d = await arrangeData(suite.db, a.app, { scope: SCOPE });
    await read(a, d.accessToken, ['nationality']);
    await read(b, d.accessToken, ['nationality']);
    const revoked = await request(a.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(d.confidential.client_id, d.confidential.client_secret!))
      .send({ authorization_id: d.authorizationId });
    expect(revoked.body.revoked_count).toBe(1);
    // A, which revoked it, at once; B once PostgreSQL announces the revocation.
    expect((await read(a, d.accessToken, ['nationality'])).body.error_code).toBe('E4042');
    await eventually(async () => (await read(b, d.accessToken, ['nationality'])).body.error_code === 'E4042', 2_000);
    expect(await a.deps.store.cache.get(`presets:${d.authorizationId}`)).toBeNull();
  });
});

describe('without Redis', () => {
  it('serves presets from the database when Redis cannot be reached', async () => {
    const down = buildIdp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const d = await arrangeData(suite.db, suite.idp.app, { scope: SCOPE });
      const res = await read({ ...down, outcomes: [] }, d.accessToken, ['nationality', 'age_over_18']);
      expect(res.status).toBe(200);
      expect(res.body.results.map((r: { value: unknown }) => r.value)).toEqual(['DE', true]);
    } finally {
      await down.deps.close();
    }
  });
});
