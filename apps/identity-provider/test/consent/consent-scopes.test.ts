import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, pkce, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

describe('the consent page shows every scope it grants', () => {
  it('shows implied scopes on the consent page and grants only what stays checked', async () => {
    const a = await arrange(suite.db, { scopes: 'openid identity:read identity:date_of_birth' });
    const agent = request.agent(app());
    const { challenge } = pkce();
    const started = await request(app()).get('/oauth/authorize').query({
      client_id: a.confidential.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'identity:date_of_birth',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const session = await signIn(app(), a.user.email, a.user.password);
    const page = await agent.get('/consent').set('Cookie', `__Host-svc_session=${session}`).query({ authorization_id: started.body.authorization_id });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="identity:date_of_birth"');
    expect(page.text).toContain('value="identity:read"');
    const context = await request(app())
      .get('/oauth/authorize/context')
      .set('Authorization', `Bearer ${session}`)
      .query({ authorization_id: started.body.authorization_id });
    expect(context.body.scopes.map((s: { id: string }) => s.id)).toEqual(['identity:date_of_birth', 'identity:read']);
    // The user unticks the implied scope: it is not granted.
    const approved = await request(app())
      .post('/oauth/authorize/approve')
      .set('Authorization', `Bearer ${session}`)
      .send({ authorization_id: started.body.authorization_id, scopes: ['identity:date_of_birth'] });
    expect(approved.status).toBe(200);
    expect(approved.body.granted_scopes).toEqual(['identity:date_of_birth']);
  });
});
