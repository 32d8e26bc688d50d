import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { sha256Hex } from '@svc/secrets';
import { uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { REFRESH_RETRY_SECONDS } from '../../src/tokens/refresh/refresh-retry.js';
import { arrange, basic, buildIdp, eventually, issueTokens, useIdp } from '../helpers.js';

// Rotation, reuse detection and scope narrowing of refresh tokens (RFC 9700 §4.14), through HTTP.
const suite = useIdp();
/** The same provider past the retry window (REFRESH_RETRY_SECONDS), for reuse that is reuse. */
let later: ReturnType<typeof buildIdp>;
beforeAll(() => {
  later = buildIdp({ REDIS_KEY_PREFIX: uniqueNamespace('refresh-later') }, { now: () => new Date(Date.now() + (REFRESH_RETRY_SECONDS + 1) * 1000) });
});
afterAll(() => later.deps.close());

/** Tokens from the whole flow (sign-in, consent, code exchange) for `a`'s confidential client. */
async function tokensFor(a: Awaited<ReturnType<typeof arrange>>) {
  const token = (await issueTokens(suite.idp.app, a)) as Awaited<ReturnType<typeof issueTokens>> & { granted_scopes: string[] };
  return { token };
}

describe('refresh tokens', () => {
  it('rotate; reusing a rotated one after the retry window revokes the family', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const refreshWith = (app: typeof suite.idp.app, rt: string) =>
      request(app)
        .post('/oauth/token')
        .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
        .send({ grant_type: 'refresh_token', refresh_token: rt });
    const second = await refreshWith(suite.idp.app, token.refresh_token);
    expect(second.status).toBe(200);
    const reuse = await refreshWith(later.app, token.refresh_token);
    expect(reuse.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was already used; every token of this grant is revoked',
      request_id: expect.any(String),
    });
    expect((await refreshWith(suite.idp.app, second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('answers parallel refreshes of one token with the one rotation’s pair, and the grant lives on', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(suite.idp.app)
          .post('/oauth/token')
          .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
          .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(200));
    // One rotation happened: every answer is its pair.
    expect(new Set(results.map((r) => r.body.refresh_token)).size).toBe(1);
    expect(new Set(results.map((r) => r.body.access_token)).size).toBe(1);
    expect(await suite.db.refreshToken.count({ where: { authorization: { application: { clientId: a.confidential.client_id } } } })).toBe(2);
    const next = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: results[0]!.body.refresh_token });
    expect(next.status).toBe(200);
  });

  it('stamps the authorization with the time of its last token, written within a second', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const authorizationId = (await suite.db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex(token.refresh_token) } })).authorizationId;
    const stamped = async () => (await suite.db.authorization.findUniqueOrThrow({ where: { id: authorizationId } })).lastTokenIssuedAt;
    const before = await stamped();
    const refreshed = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token });
    expect(refreshed.status).toBe(200);
    await eventually(async () => ((await stamped())?.getTime() ?? 0) > (before?.getTime() ?? 0), 3_000);
  });

  it('narrows to the asked scopes in granted order, and the successor keeps only those', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const refreshWith = (body: object) =>
      request(suite.idp.app)
        .post('/oauth/token')
        .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
        .send({ grant_type: 'refresh_token', ...body });
    const granted: string[] = token.granted_scopes;
    expect(granted).toContain('openid');
    expect(granted.length).toBeGreaterThan(2);
    const kept = [granted[0]!, granted.at(-1)!];
    const narrowed = await refreshWith({ refresh_token: token.refresh_token, scope: `${kept[1]} ${kept[0]} ${kept[1]}` });
    expect(narrowed.body).toMatchObject({ scope: kept.join(' '), granted_scopes: kept });
    const next = await refreshWith({ refresh_token: narrowed.body.refresh_token });
    expect(next.body.granted_scopes).toEqual(kept);
    // A refused request rotates nothing: the token still works afterwards.
    expect((await refreshWith({ refresh_token: next.body.refresh_token, scope: granted[1] })).body.error).toBe('invalid_scope');
    expect((await refreshWith({ refresh_token: next.body.refresh_token, scope: ' ' })).body.error).toBe('invalid_request');
    expect((await refreshWith({ refresh_token: next.body.refresh_token })).status).toBe(200);
  });

  it('refuses a wider scope and a token presented by another client', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const wider = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token, scope: 'openid kyc:read' });
    expect(wider.body.error).toBe('invalid_scope');
    const stolen = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token });
    expect(stolen.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was issued to another client',
      request_id: expect.any(String),
    });
  });

  it('rotates concurrent refreshes together, one statement for a group, each its own successor', async () => {
    const a = await arrange(suite.db);
    const app = await suite.db.application.findUniqueOrThrow({ where: { clientId: a.confidential.client_id } });
    const presented: string[] = [];
    for (let i = 0; i < 5; i++) presented.push((await tokensFor(a)).token.refresh_token);
    const sql = suite.idp.deps.sql;
    const groups: number[] = [];
    const rows = sql.rows.bind(sql);
    sql.rows = ((s, values) => {
      if (s.name === 'refresh_token_rotate_group') groups.push((values[0] as string[]).length);
      return rows(s, values);
    }) as typeof sql.rows;
    const now = new Date();
    const rotation = (token: string, successor: string) => ({
      presentedHash: sha256Hex(token),
      applicationId: app.id,
      jkt: null,
      asked: null,
      tokenHash: sha256Hex(successor),
      binding: null,
      now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    try {
      // Asked for in one tick: the first goes alone, the rest wait for it and go as one group (the
      // first token's second presentation among them, after the first's rotation was committed).
      const rotations = suite.idp.deps.tokens.rotations;
      const answers = await Promise.all([
        ...presented.map((token, i) => rotations.rotate(rotation(token, `successor ${i} ${now.getTime()}`))),
        rotations.rotate(rotation(presented[0]!, `again ${now.getTime()}`)),
        rotations.rotate(rotation('svcrt_never_issued', `nothing ${now.getTime()}`)),
      ]);
      expect(groups).toEqual([1, 6]);
      expect(answers.slice(0, 5).map((r) => r?.issuedScopes?.length)).toEqual(Array(5).fill(expect.any(Number)));
      // The second presentation found the first's rotation: not rotated again, and it says when.
      expect(answers[5]).toMatchObject({ issuedScopes: null, rotatedAt: now });
      expect(answers[6]).toBeUndefined();
      for (let i = 0; i < 5; i++) {
        expect(await suite.db.refreshToken.findUnique({ where: { tokenHash: sha256Hex(`successor ${i} ${now.getTime()}`) } })).not.toBeNull();
      }
      expect(await suite.db.refreshToken.findUnique({ where: { tokenHash: sha256Hex(`again ${now.getTime()}`) } })).toBeNull();
      // The same call run again (its first answer lost after the commit) answers as rotated, not as reuse.
      const rerun = await rotations.rotate(rotation(presented[1]!, `successor 1 ${now.getTime()}`));
      expect(rerun).toMatchObject({ rotatedAt: now, issuedScopes: answers[1]!.issuedScopes });
    } finally {
      sql.rows = rows;
    }
  });

  it('locks a group’s presented tokens in one order, whatever order they were asked in', async () => {
    const a = await arrange(suite.db);
    const app = await suite.db.application.findUniqueOrThrow({ where: { clientId: a.confidential.client_id } });
    const first = (await tokensFor(a)).token.refresh_token;
    const rowOf = async () => suite.db.refreshToken.findUniqueOrThrow({ where: { tokenHash: sha256Hex((await tokensFor(a)).token.refresh_token) } });
    // Two tokens stored in the opposite order of their ids (`high` first), so neither the order they
    // were stored in nor the order they are asked in (`high` first) is the order they must be locked in.
    const stored = [await rowOf()];
    let pair: [(typeof stored)[0], (typeof stored)[0]] | undefined;
    while (!pair) {
      const next = await rowOf();
      const before = stored.find((row) => row.id > next.id);
      if (before) pair = [next, before];
      stored.push(next);
    }
    const [low, high] = pair;
    const now = new Date();
    const rotation = (presentedHash: string, successor: string) => ({
      presentedHash,
      applicationId: app.id,
      jkt: null,
      asked: null,
      tokenHash: sha256Hex(`${successor} ${now.getTime()}`),
      binding: null,
      now,
      expiresAt: new Date(now.getTime() + 60_000),
    });
    // Another replica's transaction holds `high`; the group waits for it, holding `low` already.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const other = suite.db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM "RefreshToken" WHERE id = ${high.id}::uuid FOR UPDATE`;
        locked();
        await held;
      },
      { timeout: 20_000 },
    );
    await holding;
    const rotations = suite.idp.deps.tokens.rotations;
    const answers = Promise.all([
      rotations.rotate(rotation(sha256Hex(first), 'alone')),
      rotations.rotate(rotation(high.tokenHash, 'high')),
      rotations.rotate(rotation(low.tokenHash, 'low')),
    ]);
    try {
      await eventually(async () => {
        const waiting = await suite.db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%unnest($1::text[]%'`;
        return waiting[0]!.n >= 1;
      });
      const tryLow = suite.db.$transaction((tx) => tx.$queryRaw`SELECT id FROM "RefreshToken" WHERE id = ${low.id}::uuid FOR UPDATE NOWAIT`);
      await expect(tryLow).rejects.toThrow(/could not obtain lock/);
    } finally {
      release();
      await other;
    }
    expect((await answers).map((r) => r?.issuedScopes?.length)).toEqual(Array(3).fill(expect.any(Number)));
  });
});
