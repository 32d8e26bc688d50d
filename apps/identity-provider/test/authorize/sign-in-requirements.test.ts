// What a request may ask of the person's sign-in is checked at /oauth/authorize and /oauth/par like
// every other parameter: a malformed one is refused before any page is shown, and nothing is stored.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, pkce, REDIRECT, useIdp } from '../helpers.js';

const suite = useIdp();

const asked = (clientId: string, params: Record<string, string>) => ({
  client_id: clientId,
  redirect_uri: REDIRECT,
  response_type: 'code',
  scope: 'openid identity:read',
  state: 's1',
  code_challenge: pkce().challenge,
  code_challenge_method: 'S256',
  ...params,
});

const REFUSED: [Record<string, string>, string, RegExp][] = [
  [{ prompt: 'select_account' }, 'invalid_request', /prompt select_account is not supported/],
  [{ prompt: 'none consent' }, 'invalid_request', /prompt=none cannot be combined/],
  [{ max_age: '-5' }, 'invalid_request', /max_age must be a whole number/],
  [{ max_age: '1.5' }, 'invalid_request', /max_age must be a whole number/],
  [{ claims: '{"id_token": ' }, 'invalid_request', /claims must be a JSON object/],
  [{ claims: '["acr"]' }, 'invalid_request', /claims must be a JSON object/],
  [{ claims: '{"id_token": {"acr": {"essential": "yes"}}}' }, 'invalid_request', /acr.essential must be true or false/],
  [{ claims: '{"id_token": {"acr": {"essential": true, "values": ["loa4"]}}}' }, 'unmet_authentication_requirements', /acr loa4 is not issued here/],
];

describe('sign-in requirements at /oauth/authorize and /oauth/par', () => {
  it.each(REFUSED)('refuses %j with %s, storing nothing', async (params, error, description) => {
    const { app } = suite.idp;
    const a = await arrange(suite.db);
    const stored = () => suite.db.authorization.count({ where: { application: { clientId: a.confidential.client_id } } });
    const res = await request(app).get('/oauth/authorize').query(asked(a.confidential.client_id, params));
    expect(res.status).toBe(303);
    const back = new URL(res.headers.location!);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toMatch(description);
    expect(back.searchParams.get('state')).toBe('s1');
    const pushed = await request(app)
      .post('/oauth/par')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .type('form')
      .send(asked(a.confidential.client_id, params));
    expect(pushed.status).toBe(400);
    expect(pushed.body).toMatchObject({ error });
    expect(pushed.body.request_uri).toBeUndefined();
    expect(await stored()).toBe(0);
  });

  it('keeps what a good request asks, and ignores acr values it does not know', async () => {
    const a = await arrange(suite.db);
    const res = await request(suite.idp.app)
      .get('/oauth/authorize')
      .query(asked(a.confidential.client_id, { prompt: 'login consent', max_age: '0', acr_values: 'urn:example:silver phr' }));
    expect(res.status).toBe(200);
    const stored = await suite.db.authorization.findUniqueOrThrow({ where: { id: res.body.authorization_id } });
    expect(stored).toMatchObject({ prompt: ['login', 'consent'], maxAge: 0, acrValues: ['phr'], acrEssential: false });
  });
});
