// An application's sign-in policy (default_acr_values, default_max_age, sensitive_data_acr,
// sensitive_data_max_age) set through the developer API and RFC 7591 registration alike, checked
// as strictly in both, shown back as it is kept.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { useSandbox } from '../helpers.js';
import { as, confidentialApp, developer } from './developers.js';

const sandbox = useSandbox();
const POLICY = { default_acr_values: ['phr'], default_max_age: 3600, sensitive_data_acr: 'phrh', sensitive_data_max_age: 300 };

describe('an application’s sign-in policy', () => {
  it('is set, shown, changed and cleared through /v2/developer/applications', async () => {
    const { app } = sandbox.idp;
    const dev = await developer(app);
    const created = await request(app)
      .post('/v2/developer/applications')
      .set(as(dev.token))
      .send({ ...confidentialApp, ...POLICY });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject(POLICY);
    const path = `/v2/developer/applications/${created.body.client_id}`;
    const changed = await request(app).patch(path).set(as(dev.token)).send({ default_acr_values: [], sensitive_data_max_age: null, sensitive_data_acr: 'phr' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ default_max_age: 3600, sensitive_data_acr: 'phr' });
    expect(changed.body).not.toHaveProperty('default_acr_values');
    expect(changed.body).not.toHaveProperty('sensitive_data_max_age');
  });

  it('refuses what is not a policy, naming the field, and registers nothing', async () => {
    const { app } = sandbox.idp;
    const dev = await developer(app);
    const refused = await request(app)
      .post('/v2/developer/applications')
      .set(as(dev.token))
      .send({ ...confidentialApp, default_acr_values: ['gold'], sensitive_data_max_age: -1 });
    expect(refused.status).toBe(400);
    expect(refused.body.details).toEqual(
      expect.arrayContaining([
        { field: 'body.default_acr_values[0]', message: 'must be one of: pwd, phr, phrh' },
        { field: 'body.sensitive_data_max_age', message: 'must be at least 0' },
      ]),
    );
    expect((await request(app).get('/v2/developer/applications').set(as(dev.token))).body.items).toEqual([]);
  });

  it('is registered and replaced through RFC 7591 / 7592 metadata', async () => {
    const { app } = sandbox.idp;
    const dev = await developer(app);
    const iat = (await request(app).post('/v2/developer/initial-access-tokens').set(as(dev.session)).send({})).body.token as string;
    const metadata = { client_name: 'Registered', redirect_uris: ['https://app.example/cb'], scope: 'openid identity:read', ...POLICY };
    const bad = await request(app)
      .post('/oauth/register')
      .set(as(iat))
      .send({ ...metadata, sensitive_data_acr: 'loa4' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'invalid_client_metadata' });
    expect(bad.body.error_description).toContain('sensitive_data_acr');

    const registered = await request(app).post('/oauth/register').set(as(iat)).send(metadata);
    expect(registered.status).toBe(201);
    expect(registered.body).toMatchObject(POLICY);
    const { registration_access_token: token, client_id: clientId, registration_client_uri: uri } = registered.body;
    // What the replacement does not send is cleared, as for every registered member.
    const replaced = await request(app)
      .put(new URL(uri).pathname)
      .set(as(token))
      .send({ client_id: clientId, client_name: 'Registered', redirect_uris: ['https://app.example/cb'], scope: 'openid identity:read', default_max_age: 60 });
    expect(replaced.status).toBe(200);
    expect(replaced.body.default_max_age).toBe(60);
    expect(replaced.body).not.toHaveProperty('sensitive_data_acr');
  });
});
