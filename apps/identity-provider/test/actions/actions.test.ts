// An organization's actions, registered and managed by its developers (session or personal access
// token), never another organization's.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { useIdp } from '../helpers.js';
import { overtakenByADelete } from '../overtaken-by-a-delete.js';
import { accessToken, as, organization, otherOrganization, prove, registerAction } from './people.js';

const suite = useIdp();

describe('/v2/developer/actions', () => {
  it('registers an action with the defaults, lists it, reads, changes and deletes it', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    const created = await registerAction(app, org.developer, { action: 'vote-2026' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      action: 'vote-2026',
      description: null,
      max_per_person: 1,
      period: 'never',
      requires_palm_verification: true,
      created_at: expect.any(String),
    });
    const list = await request(app).get('/v2/developer/actions').set(as(org.developer));
    expect(list.body.items).toEqual([created.body]);
    expect((await request(app).get('/v2/developer/actions/vote-2026').set(as(org.developer))).body).toEqual(created.body);

    const changed = await request(app)
      .patch('/v2/developer/actions/vote-2026')
      .set(as(org.developer))
      .send({ max_per_person: 3, period: 'week', description: 'The 2026 vote', requires_palm_verification: false });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      action: 'vote-2026',
      max_per_person: 3,
      period: 'week',
      description: 'The 2026 vote',
      requires_palm_verification: false,
    });

    expect((await request(app).delete('/v2/developer/actions/vote-2026').set(as(org.developer))).status).toBe(204);
    expect((await request(app).get('/v2/developer/actions/vote-2026').set(as(org.developer))).status).toBe(404);
    expect((await request(app).delete('/v2/developer/actions/vote-2026').set(as(org.developer))).status).toBe(404);
  });

  it('takes every setting at registration, from a personal access token too', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    const pat = await request(app).post('/v2/developer/personal-access-tokens').set(as(org.developer)).send({ name: 'CI' });
    const body = { action: 'airdrop.claim_1', description: 'One claim a month', max_per_person: 2, period: 'month', requires_palm_verification: false };
    const created = await registerAction(app, pat.body.token, body);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(body);
  });

  it('refuses a name twice in one organization (409), and keeps organizations apart', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    expect((await registerAction(app, org.developer, { action: 'trial' })).status).toBe(201);
    const again = await registerAction(app, org.developer, { action: 'trial', max_per_person: 5 });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('action_exists');

    const other = await otherOrganization(org);
    const otherDeveloper = (await request(app).post('/auth/session').send({ email: other.owner.email, password: other.owner.password })).body.session_token;
    // The same name in another organization is another action; neither sees the other's.
    expect((await registerAction(app, otherDeveloper, { action: 'trial' })).status).toBe(201);
    expect((await request(app).get('/v2/developer/actions').set(as(otherDeveloper))).body.items).toHaveLength(1);
    await request(app).delete('/v2/developer/actions/trial').set(as(otherDeveloper)).expect(204);
    expect((await request(app).get('/v2/developer/actions/trial').set(as(org.developer))).status).toBe(200);
  });

  it('answers 400 naming each field that is wrong, and registers nothing', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    const fields = async (body: object) => {
      const res = await registerAction(app, org.developer, body);
      expect(res.status).toBe(400);
      return (res.body.details as { field: string }[]).map((d) => d.field);
    };
    expect(await fields({})).toEqual(['body.action']);
    expect(await fields({ action: 'Vote' })).toEqual(['body.action']);
    expect(await fields({ action: '-vote' })).toEqual(['body.action']);
    expect(await fields({ action: 'a'.repeat(65) })).toEqual(['body.action']);
    expect(await fields({ action: 'vote', max_per_person: 0 })).toEqual(['body.max_per_person']);
    expect(await fields({ action: 'vote', max_per_person: 1.5 })).toEqual(['body.max_per_person']);
    expect(await fields({ action: 'vote', period: 'year' })).toEqual(['body.period']);
    expect(await fields({ action: 'vote', requires_palm_verification: 'yes' })).toEqual(['body.requires_palm_verification']);
    expect(await fields({ action: 'vote', colour: 'red' })).toEqual(['body']);
    expect((await request(app).get('/v2/developer/actions').set(as(org.developer))).body.items).toEqual([]);

    await registerAction(app, org.developer, { action: 'vote' }).expect(201);
    const patch = await request(app).patch('/v2/developer/actions/vote').set(as(org.developer)).send({ action: 'renamed' });
    expect(patch.status).toBe(400);
    const empty = await request(app).patch('/v2/developer/actions/vote').set(as(org.developer)).send({});
    expect(empty.status).toBe(400);
    expect((await request(app).get('/v2/developer/actions/NOT_A_NAME').set(as(org.developer))).body.details[0].field).toBe('params.action');
  });

  it('answers 401 without a developer', async () => {
    const { app } = suite.idp;
    expect((await request(app).get('/v2/developer/actions')).status).toBe(401);
    expect((await request(app).post('/v2/developer/actions').send({ action: 'vote' })).status).toBe(401);
  });

  it('answers 404, not 500, to a proof, a change and a delete that another delete overtakes', async () => {
    const { app } = suite.idp;
    const org = await organization(suite.db, app);
    await registerAction(app, org.developer, { action: 'vote' }).expect(201);
    const token = await accessToken(app, org.confidential, org.user);
    const { id } = await suite.db.action.findFirstOrThrow({ where: { organizationId: org.org.id, name: 'vote' } });
    const answers = await overtakenByADelete(suite.db, (tx) => tx.action.delete({ where: { id } }), [
      prove(app, token, 'vote'),
      request(app).patch('/v2/developer/actions/vote').set(as(org.developer)).send({ max_per_person: 2 }),
      request(app).delete('/v2/developer/actions/vote').set(as(org.developer)),
    ]);
    for (const res of answers) expect([res.status, res.body.error]).toEqual([404, 'action_not_found']);
  });
});
