// Proofs of an action: one nullifier per person, action and period, counted exactly up to the
// action's limit, checked by the integrator's backend, told by webhook with ids only.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { basic, buildIdp, SECRET, useIdp } from '../helpers.js';
import { accessToken, as, organization, otherOrganization, person, prove, registerAction, secondApplication } from './people.js';

const suite = useIdp();

describe('POST /v2/actions/{action}/proofs', () => {
  it('counts a proof under a nullifier that is not the sub, binds the signal by its hash, and refuses the second with the same nullifier', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'vote' }).expect(201);
    const token = await accessToken(app, org.confidential, org.user);
    const first = await prove(app, token, 'vote', { signal: 'candidate-b' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      action: 'vote',
      nullifier: expect.stringMatching(/^nul_[A-Za-z0-9_-]{43}$/),
      signal_hash: createHash('sha256').update('candidate-b').digest('hex'),
      count: 1,
      max_per_person: 1,
      proved_at: expect.any(String),
    });
    const sub = (await request(app).get('/v2/userinfo').set(as(token))).body.sub as string;
    expect(first.body.nullifier).not.toContain(sub.slice(4));
    // Nor is it any keyed hash of the sub under the service's secrets.
    expect(first.body.nullifier.slice(4)).not.toBe(createHash('sha256').update(sub).digest('base64url'));

    const second = await prove(app, token, 'vote', { signal: 'candidate-a' });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({ error: 'max_verifications_reached', nullifier: first.body.nullifier });
  });

  it('gives one person the same nullifier within a period, through any of the organization’s applications, and counts up to the limit', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'claim', max_per_person: 2 }).expect(201);
    const second = await secondApplication(org);
    const viaFirst = await prove(app, await accessToken(app, org.confidential, org.user), 'claim');
    const viaSecond = await prove(app, await accessToken(app, second, org.user), 'claim');
    expect([viaFirst.status, viaSecond.status]).toEqual([201, 201]);
    expect(viaSecond.body.nullifier).toBe(viaFirst.body.nullifier);
    expect(viaSecond.body).toMatchObject({ count: 2, max_per_person: 2 });
    expect(viaFirst.body).not.toHaveProperty('signal_hash');
    expect((await prove(app, await accessToken(app, second, org.user), 'claim')).status).toBe(409);
  });

  it('gives different nullifiers to different actions, people and organizations', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'vote' }).expect(201);
    await registerAction(app, org.developer, { action: 'poll' }).expect(201);
    const alice = await accessToken(app, org.confidential, org.user);
    const bob = await person(org);
    const vote = (await prove(app, alice, 'vote')).body.nullifier;
    const poll = (await prove(app, alice, 'poll')).body.nullifier;
    const bobs = (await prove(app, await accessToken(app, org.confidential, bob), 'vote')).body.nullifier;

    const other = await otherOrganization(org);
    const otherDeveloper = (await request(app).post('/auth/session').send({ email: other.owner.email, password: other.owner.password })).body.session_token;
    await registerAction(app, otherDeveloper, { action: 'vote' }).expect(201);
    const elsewhere = await prove(app, await accessToken(app, other.client, org.user), 'vote');
    expect(elsewhere.status).toBe(201);
    expect(new Set([vote, poll, bobs, elsewhere.body.nullifier]).size).toBe(4);
  });

  it('refuses an unknown action (404), a person not palm-verified where required (403), a token without openid (403) or none (401)', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'humans-only' }).expect(201);
    await registerAction(app, org.developer, { action: 'anyone', requires_palm_verification: false }).expect(201);
    const unverified = await person(org, false);
    const token = await accessToken(app, org.confidential, unverified);

    const missing = await prove(app, token, 'no-such-action');
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('action_not_found');
    const refused = await prove(app, token, 'humans-only');
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe('not_unique_human');
    expect((await prove(app, token, 'anyone')).status).toBe(201);

    const noOpenid = await accessToken(app, org.confidential, org.user, 'identity:read');
    const scoped = await prove(app, noOpenid, 'anyone');
    expect(scoped.status).toBe(403);
    expect(scoped.body.error).toBe('insufficient_scope');

    const anonymous = await request(app).post('/v2/actions/anyone/proofs').send({});
    expect(anonymous.status).toBe(401);
    expect((await prove(app, 'not-a-token', 'anyone')).status).toBe(401);
    // Another organization's application cannot prove this one's action: it has none of that name.
    const other = await otherOrganization(org);
    expect((await prove(app, await accessToken(app, other.client, org.user), 'anyone')).status).toBe(404);
    const tooLong = await prove(app, token, 'anyone', { signal: 'x'.repeat(1025) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.details[0].field).toBe('body.signal');
  });

  it('lets exactly one of ten parallel proofs through a limit of 1', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'once' }).expect(201);
    const token = await accessToken(app, org.confidential, org.user);
    const answers = await Promise.all(Array.from({ length: 10 }, () => prove(app, token, 'once')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(new Set(answers.map((a) => a.body.nullifier)).size).toBe(1);
    const action = await suite.db.action.findFirstOrThrow({ where: { organizationId: org.org.id, name: 'once' }, include: { proofs: true } });
    expect(action.proofs.map((p) => p.count)).toEqual([1]);
  });

  it('writes action.proved into the outbox with the action and the nullifier only, and nothing for a refusal', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'signup' }).expect(201);
    const token = await accessToken(app, org.confidential, org.user);
    const proved = await prove(app, token, 'signup', { signal: '0xabc' });
    await prove(app, token, 'signup').expect(409);
    const events = await suite.db.webhookEvent.findMany({ where: { organizationId: org.org.id, type: 'action.proved' } });
    expect(events.map((e) => e.data)).toEqual([{ action: 'signup', nullifier: proved.body.nullifier }]);
    // The proof's row holds the nullifier, the count and the signal's hash: nothing of the person.
    const row = await suite.db.actionProof.findFirstOrThrow({ where: { nullifier: proved.body.nullifier } });
    expect(Object.values(row)).not.toContain(org.user.id);
    expect(row.signalHash).toBe(proved.body.signal_hash);
  });
});

describe('a new period', () => {
  // 23:58 UTC on a Sunday: two minutes on it is another day, week, and (on the last day of a month) another month.
  const start = Date.UTC(2026, 4, 31, 23, 58);
  let offset = start - Date.now();
  const clock = { now: () => new Date(Date.now() + offset) };
  let idp: ReturnType<typeof buildIdp>;
  beforeAll(() => {
    idp = buildIdp({}, clock);
  });
  afterAll(() => idp.deps.close());

  it.each(['day', 'week', 'month'] as const)('gives a new nullifier and a fresh count when the %s ends, the same one until then', async (period) => {
    offset = start - Date.now();
    const org = await organization(suite.db, idp.app);
    await registerAction(idp.app, org.developer, { action: `every-${period}`, period }).expect(201);
    const token = await accessToken(idp.app, org.confidential, org.user);
    const before = await prove(idp.app, token, `every-${period}`);
    expect(before.status).toBe(201);
    offset += 60_000;
    expect((await prove(idp.app, token, `every-${period}`)).body).toMatchObject({ error: 'max_verifications_reached', nullifier: before.body.nullifier });
    offset += 120_000;
    const after = await prove(idp.app, token, `every-${period}`);
    expect(after.status).toBe(201);
    expect(after.body.count).toBe(1);
    expect(after.body.nullifier).not.toBe(before.body.nullifier);
  });
});

describe('two replicas', () => {
  let replica: ReturnType<typeof buildIdp>;
  beforeAll(() => {
    replica = buildIdp();
  });
  afterAll(() => replica.deps.close());

  it('let exactly one of ten parallel proofs through a limit of 1, and agree on the nullifier', async () => {
    const org = await organization(suite.db, suite.idp.app);
    await registerAction(suite.idp.app, org.developer, { action: 'one-vote' }).expect(201);
    const token = await accessToken(suite.idp.app, org.confidential, org.user);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => prove(i % 2 ? replica.app : suite.idp.app, token, 'one-vote')));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(new Set(answers.map((a) => a.body.nullifier)).size).toBe(1);
  });

  it('agree on nullifiers only under one secret: another deployment’s differ', async () => {
    const org = await organization(suite.db, suite.idp.app);
    await registerAction(suite.idp.app, org.developer, { action: 'keyed', max_per_person: 2 }).expect(201);
    const token = await accessToken(suite.idp.app, org.confidential, org.user);
    const own = (await prove(suite.idp.app, token, 'keyed')).body.nullifier;
    const elsewhere = buildIdp({ ACTION_NULLIFIER_SECRET: `${SECRET}-nullifiers-0123456789` });
    try {
      expect((await prove(elsewhere.app, token, 'keyed')).body.nullifier).not.toBe(own);
    } finally {
      await elsewhere.deps.close();
    }
  });
});

describe('GET /v2/actions/{action}/proofs/{nullifier}', () => {
  it('tells the integrator’s backend the count, the latest proof and its signal hash; 404 for an unknown nullifier', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'ballot', max_per_person: 2 }).expect(201);
    const token = await accessToken(app, org.confidential, org.user);
    await prove(app, token, 'ballot', { signal: 'yes' }).expect(201);
    const latest = await prove(app, token, 'ballot', { signal: 'no' });
    const auth = basic(org.confidential.client_id, org.confidential.client_secret!);
    const check = await request(app).get(`/v2/actions/ballot/proofs/${latest.body.nullifier}`).set('Authorization', auth);
    expect(check.status).toBe(200);
    expect(check.body).toEqual({ nullifier: latest.body.nullifier, count: 2, proved_at: latest.body.proved_at, signal_hash: latest.body.signal_hash });

    const unknown = await request(app)
      .get(`/v2/actions/ballot/proofs/nul_${'A'.repeat(43)}`)
      .set('Authorization', auth);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('proof_not_found');
    expect((await request(app).get(`/v2/actions/ballot/proofs/${latest.body.nullifier}`)).status).toBe(401);
    expect(
      (await request(app).get(`/v2/actions/ballot/proofs/${latest.body.nullifier}`).set('Authorization', basic(org.confidential.client_id, 'wrong'))).status,
    ).toBe(401);
    // Another organization's client knows no such action.
    const other = await otherOrganization(org);
    const elsewhere = await request(app)
      .get(`/v2/actions/ballot/proofs/${latest.body.nullifier}`)
      .set('Authorization', basic(other.client.client_id, other.client.client_secret!));
    expect(elsewhere.status).toBe(404);
    expect((await request(app).get('/v2/actions/ballot/proofs/not-a-nullifier').set('Authorization', auth)).status).toBe(400);
  });
});
