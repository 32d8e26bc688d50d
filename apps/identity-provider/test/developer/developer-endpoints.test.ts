import { describe, expect, it } from '@jest/globals';
import { addMember, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { arrange, basic, issueTokens, signIn, useIdp } from '../helpers.js';

const suite = useIdp();

const tokens = (a: Awaited<ReturnType<typeof arrange>>) => issueTokens(suite.idp.app, a);

describe('developer endpoints', () => {
  it('shows and renames the organization, owner only', async () => {
    const a = await arrange(suite.db);
    const owner = await signIn(suite.idp.app, a.user.email, a.user.password);
    const shown = await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${owner}`);
    expect(shown.body).toEqual({ id: a.org.id, name: 'Client Org', ownerId: a.user.id, isOwner: true });
    const renamed = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${owner}`).send({ name: '  Renamed Org ' });
    expect(renamed.body.name).toBe('Renamed Org');
    for (const name of ['', '   ', 'x'.repeat(101)]) {
      const bad = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${owner}`).send({ name });
      expect(bad.status).toBe(400);
      expect(bad.body.details[0].field).toBe('body.name');
    }
    const dev = await createUser(a.ctx, { email: uniqueEmail('dev'), password: 'correct horse battery' });
    await addMember(a.ctx, { org: a.org.id, email: dev.email, role: 'developer' });
    const devSession = await signIn(suite.idp.app, dev.email, 'correct horse battery');
    expect((await request(suite.idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${devSession}`)).body.isOwner).toBe(false);
    const refused = await request(suite.idp.app).put('/v2/developer/organization').set('Authorization', `Bearer ${devSession}`).send({ name: 'Mine now' });
    expect(refused.status).toBe(403);
    expect((await request(suite.idp.app).get('/v2/developer/organization')).status).toBe(401);
  });

  it('lists authorization changes for the client’s organization, paged by updated_since', async () => {
    const a = await arrange(suite.db);
    const first = await tokens(a);
    const second = await tokens(a);
    await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ authorization_id: first.authorizationId });
    const auth = basic(a.confidential.client_id, a.confidential.client_secret!);
    const all = await request(suite.idp.app).get('/v2/authorizations').set('Authorization', auth);
    expect(all.body.items.map((i: { authorization_id: string; status: string }) => [i.authorization_id, i.status])).toEqual([
      [second.authorizationId, 'active'],
      [first.authorizationId, 'revoked'],
    ]);
    expect(all.body.items[0].app_scoped_user_id).toBe(second.app_scoped_user_id);
    const page = await request(suite.idp.app).get('/v2/authorizations').query({ limit: 1 }).set('Authorization', auth);
    expect(page.body.has_more).toBe(true);
    const rest = await request(suite.idp.app).get('/v2/authorizations').query({ updated_since: page.body.last_modified }).set('Authorization', auth);
    expect(rest.body.items.map((i: { authorization_id: string }) => i.authorization_id)).toEqual([first.authorizationId]);
    expect((await request(suite.idp.app).get('/v2/authorizations').query({ status: 'revoked' }).set('Authorization', auth)).body.items).toHaveLength(1);
    expect((await request(suite.idp.app).get('/v2/authorizations').query({ limit: 201 }).set('Authorization', auth)).status).toBe(400);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    expect((await request(suite.idp.app).get('/v2/authorizations').set('Authorization', `Bearer ${session}`)).body.items).toHaveLength(2);
    expect((await request(suite.idp.app).get('/v2/authorizations')).status).toBe(401);
  });
});
