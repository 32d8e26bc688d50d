// Developers sign up (open, or by invitation; either way through the mailed link), join by
// invitation token only, and leave with their tokens; owners alone invite and remove.
import { describe, expect, it } from '@jest/globals';
import { uniqueEmail, uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { buildIdp, SANDBOX_URL, useIdp, useSandbox } from '../helpers.js';
import { as, confidentialApp, developer, PASSWORD, signUp } from './developers.js';

const production = useIdp();
const sandbox = useSandbox();

describe('signing up', () => {
  it('opens an account and an organization in the sandbox; the personal access token works for the developer API', async () => {
    const dev = await developer(sandbox.idp.app);
    expect(dev.token).toMatch(/^sbx_svcpat_[0-9A-Za-z]{43}$/);
    const org = await request(sandbox.idp.app).get('/v2/developer/organization').set(as(dev.token));
    expect(org.body).toEqual({ id: dev.organizationId, name: 'Acme', ownerId: dev.userId, isOwner: true });
  });

  it('is by invitation in production: only the invitation token and its email join, and a refusal tells nothing (attack: taking an invitation meant for someone else)', async () => {
    const stranger = await request(production.idp.app)
      .post('/v2/developer/signup')
      .send({ email: uniqueEmail('x'), password: PASSWORD, organization_name: 'X' });
    expect([stranger.status, stranger.body.error]).toEqual([403, 'signup_closed']);
    const open = buildIdp({ CONSOLE_SIGNUP: 'open' });
    try {
      const owner = await developer(open.app);
      const invitee = uniqueEmail('invitee');
      const invited = await request(open.app).post('/v2/developer/members').set(as(owner.session)).send({ email: invitee, role: 'owner' });
      expect(invited.status).toBe(201);
      expect(invited.body).toEqual({
        email: invitee,
        role: 'owner',
        status: 'invited',
        invitation_token: expect.stringMatching(/^svcinv_/),
        expires_at: expect.any(String),
      });
      // Whoever knows (or guesses) the invited email gets nothing without the token: the same answer as for any stranger.
      const thief = await request(production.idp.app).post('/v2/developer/signup').send({ email: invitee, password: PASSWORD });
      expect([thief.status, thief.body.error]).toEqual([403, 'signup_closed']);
      const otherEmail = await request(production.idp.app)
        .post('/v2/developer/signup')
        .send({ email: uniqueEmail('thief'), password: PASSWORD, invitation_token: invited.body.invitation_token });
      expect([otherEmail.status, otherEmail.body.error]).toEqual([403, 'invitation_invalid']);
      // With the token and its email, and the mailed link followed, the invitee is in.
      const joined = await signUp(production.idp.app, { email: invitee, invitation_token: invited.body.invitation_token });
      expect(joined.organization_id).toBe(owner.organizationId);
      const members = await request(open.app).get('/v2/developer/members').set(as(owner.token));
      expect(members.body.items).toContainEqual({ email: invitee, role: 'owner', status: 'member', user_id: joined.user_id });
      // Used once.
      const again = await request(production.idp.app)
        .post('/v2/developer/signup')
        .send({ email: uniqueEmail('late'), password: PASSWORD, invitation_token: invited.body.invitation_token });
      expect(again.status).toBe(403);
    } finally {
      await open.deps.close();
    }
  });

  it('never adds an existing account without it accepting, and says nothing of whether an email has one (attacks: pulling a developer into another organization, enumeration)', async () => {
    const owner = await developer(sandbox.idp.app);
    const victim = await developer(sandbox.idp.app);
    const toExisting = await request(sandbox.idp.app).post('/v2/developer/members').set(as(owner.session)).send({ email: victim.email, role: 'owner' });
    const toNobody = await request(sandbox.idp.app)
      .post('/v2/developer/members')
      .set(as(owner.session))
      .send({ email: uniqueEmail('nobody'), role: 'owner' });
    expect(Object.keys(toExisting.body).sort()).toEqual(Object.keys(toNobody.body).sort());
    expect(toExisting.body.status).toBe('invited');
    // The victim's console still speaks for their own organization, untouched.
    expect((await request(sandbox.idp.app).get('/v2/developer/organization').set(as(victim.token))).body.id).toBe(victim.organizationId);
    expect(await sandbox.db.organizationMember.count({ where: { userId: victim.userId } })).toBe(1);
    // Accepting takes the invited person's own session.
    const wrongPerson = await request(sandbox.idp.app)
      .post('/v2/developer/invitations/accept')
      .set(as(owner.session))
      .send({ invitation_token: toExisting.body.invitation_token });
    expect(wrongPerson.status).toBe(403);
    const accepted = await request(sandbox.idp.app)
      .post('/v2/developer/invitations/accept')
      .set(as(victim.session))
      .send({ invitation_token: toExisting.body.invitation_token });
    expect(accepted.body).toEqual({ organization_id: owner.organizationId, role: 'owner' });
    // Members are removed by owners (or leave); the founder stays.
    const founder = await request(sandbox.idp.app).delete(`/v2/developer/members/${owner.userId}`).set(as(owner.session));
    expect(founder.status).toBe(409);
    expect((await request(sandbox.idp.app).delete(`/v2/developer/members/${victim.userId}`).set(as(owner.session))).status).toBe(204);
    expect(await sandbox.db.organizationMember.count({ where: { userId: victim.userId } })).toBe(1);
  });

  it('keeps a personal access token from widening itself: it cannot make tokens or invite; tokens are listed and revoked', async () => {
    const dev = await developer(sandbox.idp.app);
    const minted = await request(sandbox.idp.app).post('/v2/developer/personal-access-tokens').set(as(dev.token)).send({ name: 'forever' });
    expect(minted.status).toBe(401);
    expect((await request(sandbox.idp.app).post('/v2/developer/initial-access-tokens').set(as(dev.token)).send({})).status).toBe(401);
    expect(
      (
        await request(sandbox.idp.app)
          .post('/v2/developer/members')
          .set(as(dev.token))
          .send({ email: uniqueEmail('m'), role: 'owner' })
      ).status,
    ).toBe(401);
    const listed = await request(sandbox.idp.app).get('/v2/developer/personal-access-tokens').set(as(dev.token));
    expect(listed.body.items).toEqual([
      {
        id: expect.any(String),
        name: 'CI',
        prefix: dev.token.slice(0, 17),
        created_at: expect.any(String),
        expires_at: expect.any(String),
        last_used_at: expect.any(String),
      },
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(dev.token);
    expect((await request(sandbox.idp.app).delete(`/v2/developer/personal-access-tokens/${listed.body.items[0].id}`).set(as(dev.token))).status).toBe(204);
    expect((await request(sandbox.idp.app).get('/v2/developer/organization').set(as(dev.token))).status).toBe(401);
  });

  it('is limited per source address (SIGNUP_RATE_LIMIT an hour)', async () => {
    const limited = buildIdp({
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: sandbox.idp.deps.config.DATABASE_URL,
      PUBLIC_URL: SANDBOX_URL,
      SIGNUP_RATE_LIMIT: '2',
      REDIS_KEY_PREFIX: uniqueNamespace('signups'),
    });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (
            await request(limited.app)
              .post('/v2/developer/signup')
              .send({ email: uniqueEmail('s'), password: PASSWORD, organization_name: 'S' })
          ).status,
        );
      expect(statuses).toEqual([202, 202, 429]);
    } finally {
      await limited.deps.close();
    }
  });

  it('answers a taken email as any other (its owner is mailed instead), and a missing organization name with a 400 naming it; changes nothing', async () => {
    const dev = await developer(sandbox.idp.app);
    const again = await request(sandbox.idp.app).post('/v2/developer/signup').send({ email: dev.email, password: 'another password', organization_name: 'B' });
    expect([again.status, again.body]).toEqual([202, { status: 'verification_sent', expires_in: 1800 }]);
    expect(await sandbox.db.organizationMember.count({ where: { userId: dev.userId } })).toBe(1);
    const noOrg = await request(sandbox.idp.app)
      .post('/v2/developer/signup')
      .send({ email: uniqueEmail('y'), password: PASSWORD });
    expect(noOrg.status).toBe(400);
    expect(noOrg.body.details).toEqual([{ field: 'body.organization_name', message: 'is required (or an invitation_token to join an organization)' }]);
    const weak = await request(sandbox.idp.app)
      .post('/v2/developer/signup')
      .send({ email: 'not-an-email', password: 'short', organization_name: 'C', extra: 1 });
    expect(weak.status).toBe(400);
    expect(weak.body.details.map((d: { field: string }) => d.field).sort()).toEqual(['body', 'body.email', 'body.password']);
  });
});

describe('one organization’s things', () => {
  it('are not found by another organization’s developers: applications, API keys', async () => {
    const alice = await developer(sandbox.idp.app);
    const mallory = await developer(sandbox.idp.app);
    const app = (await request(sandbox.idp.app).post('/v2/developer/applications').set(as(alice.token)).send(confidentialApp)).body;
    const key = (
      await request(sandbox.idp.app)
        .post('/v2/developer/api-keys')
        .set(as(alice.token))
        .send({ permissions: ['wallet:verify'] })
    ).body;
    const path = `/v2/developer/applications/${app.client_id}`;
    for (const attempt of [
      request(sandbox.idp.app).get(path),
      request(sandbox.idp.app).patch(path).send({ name: 'mine now' }),
      request(sandbox.idp.app).delete(path),
      request(sandbox.idp.app).post(`${path}/rotate-secret`),
      request(sandbox.idp.app).post(`/v2/developer/api-keys/${key.id}/disable`),
    ]) {
      const res = await attempt.set(as(mallory.token));
      expect(res.status).toBe(404);
    }
    expect((await request(sandbox.idp.app).get('/v2/developer/applications').set(as(mallory.token))).body.items).toEqual([]);
    expect((await request(sandbox.idp.app).get(path).set(as(alice.token))).body).toMatchObject({ name: 'My app', status: 'active' });
    expect((await request(sandbox.idp.app).get('/v2/developer/api-keys').set(as(alice.token))).body.items[0].status).toBe('active');
  });

  it('are changed only by the organization’s owners where the role says so, and cookie writes need the CSRF token', async () => {
    const owner = await developer(sandbox.idp.app);
    const member = await developer(sandbox.idp.app);
    const invitation = await request(sandbox.idp.app).post('/v2/developer/members').set(as(owner.session)).send({ email: member.email, role: 'developer' });
    await request(sandbox.idp.app)
      .post('/v2/developer/invitations/accept')
      .set(as(member.session))
      .send({ invitation_token: invitation.body.invitation_token });
    // Out of its own organization, the member speaks for the one it joined: a token made now acts there, as a developer.
    await sandbox.db.organizationMember.deleteMany({ where: { userId: member.userId, role: 'owner' } });
    const joined = await request(sandbox.idp.app).post('/v2/developer/personal-access-tokens').set(as(member.session)).send({ name: 'joined' });
    member.token = joined.body.token;
    expect((await request(sandbox.idp.app).get('/v2/developer/organization').set(as(member.token))).body).toMatchObject({
      id: owner.organizationId,
      isOwner: false,
    });
    const refused = await request(sandbox.idp.app)
      .post('/v2/developer/members')
      .set(as(member.session))
      .send({ email: uniqueEmail('z'), role: 'owner' });
    expect(refused.status).toBe(403);
    expect((await request(sandbox.idp.app).delete(`/v2/developer/members/${owner.userId}`).set(as(member.session))).status).toBe(409);
    const rename = await request(sandbox.idp.app).put('/v2/developer/organization').set(as(member.token)).send({ name: 'Taken over' });
    expect(rename.status).toBe(403);
    // With the session cookie a write must carry the session's CSRF token.
    const cookie = `__Host-sbx_svc_session=${owner.session}`;
    const forged = await request(sandbox.idp.app)
      .post('/v2/developer/api-keys')
      .set('Cookie', cookie)
      .send({ permissions: ['wallet:verify'] });
    expect(forged.status).toBe(403);
    expect(forged.body.error).toBe('csrf_failed');
    expect((await request(sandbox.idp.app).get('/v2/developer/api-keys').set(as(owner.token))).body.items).toEqual([]);
  });
});

describe('a member removed', () => {
  it('loses every token: personal and initial access tokens are revoked, and none comes back on rejoining', async () => {
    const owner = await developer(sandbox.idp.app);
    const member = await developer(sandbox.idp.app);
    const join = async () => {
      const invitation = await request(sandbox.idp.app).post('/v2/developer/members').set(as(owner.session)).send({ email: member.email, role: 'developer' });
      await request(sandbox.idp.app)
        .post('/v2/developer/invitations/accept')
        .set(as(member.session))
        .send({ invitation_token: invitation.body.invitation_token });
    };
    await join();
    // Out of their own organization, the member acts in the joined one.
    await sandbox.db.organizationMember.deleteMany({ where: { userId: member.userId, role: 'owner' } });
    const token = (await request(sandbox.idp.app).post('/v2/developer/personal-access-tokens').set(as(member.session)).send({ name: 'mine' })).body.token;
    const iat = (await request(sandbox.idp.app).post('/v2/developer/initial-access-tokens').set(as(member.session)).send({})).body.token;
    expect((await request(sandbox.idp.app).get('/v2/developer/initial-access-tokens').set(as(owner.token))).body.items).toHaveLength(1);
    expect((await request(sandbox.idp.app).delete(`/v2/developer/members/${member.userId}`).set(as(owner.session))).status).toBe(204);
    const register = () =>
      request(sandbox.idp.app)
        .post('/oauth/register')
        .set(as(iat))
        .send({ redirect_uris: ['https://attacker.example/cb'] });
    expect((await register()).status).toBe(401);
    expect((await request(sandbox.idp.app).get('/v2/developer/applications').set(as(token))).status).toBe(401);
    await join();
    expect((await request(sandbox.idp.app).get('/v2/developer/applications').set(as(token))).status).toBe(401);
    expect((await register()).status).toBe(401);
  });
});
