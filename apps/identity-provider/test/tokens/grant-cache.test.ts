// The grant cache across replicas, on a real PostgreSQL: two identity-provider instances share a
// database, each with its own memory and its own listener.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { createLogger } from '@svc/http';
import { systemClock } from '@svc/runtime';
import { testDatabaseUrl } from '@svc/testkit';
import type { Grant } from '../../src/tokens/grant.js';
import { GrantCache } from '../../src/tokens/grant-cache.js';
import { arrange, basic, buildIdp, eventually, holdNotifications, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();
let a: ReturnType<typeof buildIdp>;
let b: ReturnType<typeof buildIdp>;

const live = (idp: ReturnType<typeof buildIdp>) => idp.deps.tokens.grants.live;
const userinfo = (idp: ReturnType<typeof buildIdp>, token: string) => request(idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
async function lookups(idp: ReturnType<typeof buildIdp>, outcome: string): Promise<number> {
  const text = (await request(idp.app).get('/metrics')).text;
  return Number(new RegExp(`grant_cache_lookups_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  a = buildIdp();
  b = buildIdp();
  await eventually(() => live(a) && live(b));
});
afterAll(async () => {
  await a.deps.close();
  await b.deps.close();
});

describe('the grant cache on two replicas', () => {
  it('serves a repeated bearer request from memory', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    const before = await lookups(b, 'hit');
    expect((await userinfo(b, t.access_token)).status).toBe(200);
    expect((await userinfo(b, t.access_token)).status).toBe(200);
    expect(await lookups(b, 'hit')).toBe(before + 1);
    expect((await request(b.app).get('/ready')).body.checks).toContainEqual({
      name: 'grant_cache',
      ok: true,
      details: expect.objectContaining({ mode: expect.stringMatching(/^memory/) }),
    });
  });

  it('refuses on B a grant revoked through A, and at once on A itself', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    expect((await userinfo(a, t.access_token)).status).toBe(200);
    expect((await userinfo(b, t.access_token)).status).toBe(200);
    const revoked = await request(a.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(arranged.confidential.client_id, arranged.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    expect(revoked.body.revoked).toBe(true);
    // A dropped its own entry before answering.
    expect((await userinfo(a, t.access_token)).status).toBe(401);
    // B learns it from PostgreSQL's notification, within the documented bound.
    await eventually(async () => (await userinfo(b, t.access_token)).status === 401, 2_000);
  });

  it('refuses a single revoked access token and a revoked client on the other replica', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    expect((await userinfo(b, t.access_token)).status).toBe(200);
    await request(a.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(arranged.confidential.client_id, arranged.confidential.client_secret!))
      .send({ token: t.access_token });
    await eventually(async () => (await userinfo(b, t.access_token)).status === 401, 2_000);

    const other = await issueTokens(a.app, arranged);
    expect((await userinfo(b, other.access_token)).status).toBe(200);
    await suite.db.application.update({ where: { clientId: arranged.confidential.client_id }, data: { status: 'revoked', revokedAt: new Date() } });
    await eventually(async () => (await userinfo(b, other.access_token)).status === 401, 2_000);
  });

  it('shows a change to the user at once on every replica', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    expect((await userinfo(b, t.access_token)).body.email).toBe(arranged.user.email);
    const email = `changed-${arranged.user.email}`;
    await suite.db.user.update({ where: { id: arranged.user.id }, data: { email } });
    await eventually(async () => (await userinfo(b, t.access_token)).body.email === email, 2_000);
  });

  it('refuses at once, on the replica that made it, a change the developer made before any notification arrives', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    expect((await userinfo(a, t.access_token)).status).toBe(200);
    const late = holdNotifications(a);
    try {
      const revoked = await request(a.app).delete(`/v2/developer/applications/${arranged.confidential.client_id}`).set('Authorization', `Bearer ${t.session}`);
      expect(revoked.body).toMatchObject({ status: 'revoked' });
      expect((await userinfo(a, t.access_token)).status).toBe(401);
    } finally {
      late.release();
    }
  });

  it('reads the database while its listener is down, and goes back to memory when it is back', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    expect((await userinfo(b, t.access_token)).status).toBe(200);
    const userToken = () =>
      request(b.app)
        .post('/oauth/client/user-token')
        .send({ client_id: arranged.confidential.client_id, client_secret: arranged.confidential.client_secret, email: arranged.user.email });
    expect((await userToken()).status).toBe(200);
    // Kill B's listener connection from the server side, as a network fault or failover would.
    await suite.db.$executeRawUnsafe(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '${b.deps.tokens.grants.listenerName}'`);
    await eventually(() => !live(b), 3_000);
    expect((await request(b.app).get('/ready')).body.checks).toContainEqual({
      name: 'grant_cache',
      ok: true,
      details: expect.objectContaining({ mode: expect.stringMatching(/^database/) }),
    });
    // Revoked through A: B, reading the database now, refuses at once.
    await request(a.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(arranged.confidential.client_id, arranged.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    expect((await userinfo(b, t.access_token)).status).toBe(401);
    expect((await userToken()).status).toBe(404);
    // The listener reconnects by itself; B then serves from memory again, starting empty.
    await eventually(() => live(b), 10_000);
    const fresh = await issueTokens(a.app, arranged);
    const hits = await lookups(b, 'hit');
    expect((await userinfo(b, fresh.access_token)).status).toBe(200);
    expect((await userinfo(b, fresh.access_token)).status).toBe(200);
    expect(await lookups(b, 'hit')).toBe(hits + 1);
  });
});

describe('the user-token lookup on two replicas', () => {
  const userToken = (idp: ReturnType<typeof buildIdp>, arranged: Awaited<ReturnType<typeof arrange>>) =>
    request(idp.app)
      .post('/oauth/client/user-token')
      .send({ client_id: arranged.confidential.client_id, client_secret: arranged.confidential.client_secret, email: arranged.user.email });
  const cachedFor = (idp: ReturnType<typeof buildIdp>, arranged: Awaited<ReturnType<typeof arrange>>, applicationId: string) =>
    idp.deps.tokens.grants.activeAuthorization(applicationId, arranged.user.email);
  const applicationIdOf = async (clientId: string) => (await suite.db.application.findUniqueOrThrow({ where: { clientId } })).id;

  it('answers a repeated request from memory, and refuses on B at once when the grant is revoked through A', async () => {
    const arranged = await arrange(suite.db);
    const t = await issueTokens(a.app, arranged);
    const appId = await applicationIdOf(arranged.confidential.client_id);
    expect((await userToken(b, arranged)).body.authorization_id).toBe(t.authorizationId);
    expect(cachedFor(b, arranged, appId)).toMatchObject({ id: t.authorizationId });
    expect((await userToken(b, arranged)).body.authorization_id).toBe(t.authorizationId);

    await request(a.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(arranged.confidential.client_id, arranged.confidential.client_secret!))
      .send({ authorization_id: t.authorizationId });
    expect((await userToken(a, arranged)).status).toBe(404);
    await eventually(async () => (await userToken(b, arranged)).status === 404, 2_000);
    expect(cachedFor(b, arranged, appId)).toBeUndefined();
  });

  it('moves to a newer authorization of the same client and user on every replica', async () => {
    const arranged = await arrange(suite.db);
    const first = await issueTokens(a.app, arranged);
    const appId = await applicationIdOf(arranged.confidential.client_id);
    expect((await userToken(b, arranged)).body).toMatchObject({ authorization_id: first.authorizationId });
    const second = await issueTokens(a.app, arranged, 'openid identity:read');
    await eventually(async () => (await userToken(b, arranged)).body.authorization_id === second.authorizationId, 2_000);
    expect((await userToken(b, arranged)).body.scopes.sort()).toEqual(['identity:read', 'openid']);
    expect(cachedFor(b, arranged, appId)).toMatchObject({ id: second.authorizationId });
  });

  it('is not kept when a change to what it read arrived while it was read', async () => {
    const cache = b.deps.tokens.grants;
    const authorization = { id: 'auth-x', userId: 'user-x', grantedScopes: ['openid'] };
    for (const change of ['a:auth-x', 'g:app-x:user-x', 'u:user-x', 'c:app-x']) {
      const began = cache.sequence;
      cache.changed(change);
      cache.setActiveAuthorization('app-x', 'x@test.example', authorization, began);
      expect(cache.activeAuthorization('app-x', 'x@test.example')).toBeUndefined();
    }
    const began = cache.sequence;
    cache.changed('g:app-x:someone-else');
    cache.setActiveAuthorization('app-x', 'x@test.example', authorization, began);
    expect(cache.activeAuthorization('app-x', 'x@test.example')).toEqual(authorization);
    cache.changed('g:app-x:user-x');
    expect(cache.activeAuthorization('app-x', 'x@test.example')).toBeUndefined();
  });
});

describe('a read that races a change', () => {
  const grant = (authorizationId: string, userId: string): Grant => ({
    authorizationId,
    userId,
    grantedScopes: ['openid'],
    dataWindowEndsAt: new Date(Date.now() + 60_000),
    dataVersion: '1',
    user: { email: 'x@test.example', serviceId: 's', updatedAt: new Date(), primaryWallet: null },
  });

  it('is cached when only unrelated things changed meanwhile, and not when what it read changed', async () => {
    const cache = new GrantCache(systemClock(), { databaseUrl: testDatabaseUrl(), logger: createLogger({ name: 't', level: 'silent' }) }).start();
    try {
      await eventually(() => cache.live);
      const exp = Date.now() + 60_000;
      let began = cache.sequence;
      cache.changed('u:someone-else');
      cache.changed('a:another-authorization');
      cache.set('jti-1', { grant: grant('auth-1', 'user-1'), applicationId: 'app-1', expiresAt: exp }, began);
      expect(cache.get('jti-1')).toBeDefined();

      for (const change of ['a:auth-2', 'u:user-2', 'c:app-2', 't:jti-2']) {
        began = cache.sequence;
        cache.changed(change);
        cache.set('jti-2', { grant: grant('auth-2', 'user-2'), applicationId: 'app-2', expiresAt: exp }, began);
        expect(cache.get('jti-2')).toBeUndefined();
      }
      // So many changes since the read began that the log no longer reaches back: not cached.
      began = cache.sequence;
      for (let i = 0; i < 1_500; i++) cache.changed(`u:noise-${i}`);
      cache.set('jti-3', { grant: grant('auth-3', 'user-3'), applicationId: 'app-3', expiresAt: exp }, began);
      expect(cache.get('jti-3')).toBeUndefined();
    } finally {
      await cache.close();
    }
  });
});
