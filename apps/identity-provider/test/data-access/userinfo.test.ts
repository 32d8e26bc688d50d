import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, issueTokens, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const userinfo = (token: string) => request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
const tokens = (a: Awaited<ReturnType<typeof arrange>>, scope?: string) => issueTokens(app(), a, scope);

describe('GET /v2/userinfo stays within its scopes and window', () => {
  it('does not show service_id to a token without openid', async () => {
    const a = await arrange(suite.db);
    const t = await tokens(a, 'identity:read');
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(200);
    expect(res.body.service_id).toBeUndefined();
    const preset = await request(app()).get('/v2/presets/service_uuid').set('Authorization', `Bearer ${t.access_token}`);
    expect(preset.status).toBe(403);
  });

  it('refuses user info once the data window is over', async () => {
    const a = await arrange(suite.db, { presetCacheTtl: 60 });
    const t = await tokens(a);
    await suite.db.authorization.update({ where: { id: t.authorizationId }, data: { approvedAt: new Date(Date.now() - 120_000) } });
    const res = await userinfo(t.access_token);
    expect(res.status).toBe(401);
    expect(res.body.error_code).toBe('E4010');
  });
});

describe('GET /v2/userinfo reading the Authorization header', () => {
  it('takes the Bearer scheme in any case (RFC 7235 §2.1)', async () => {
    const t = await tokens(await arrange(suite.db), 'openid');
    const res = await request(app()).get('/v2/userinfo').set('Authorization', `bearer ${t.access_token}`);
    expect(res.status).toBe(200);
  });

  it('refuses no token as missing, and garbage or a token sent twice as invalid', async () => {
    const t = await tokens(await arrange(suite.db), 'openid');
    const missing = await request(app()).get('/v2/userinfo').set('Authorization', `Basic ${t.access_token}`);
    expect(missing.status).toBe(401);
    expect(missing.body.error_description).toBe('An access token is required');
    for (const header of [`Bearer  ${t.access_token}`, `Bearer ${t.access_token} more`, [`Bearer ${t.access_token}`, `Bearer ${t.access_token}`]]) {
      // superagent sends an array as one header line per value; its types know only one.
      const res = await request(app())
        .get('/v2/userinfo')
        .set('Authorization', header as string);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ error: 'invalid_token', error_description: 'The access token is invalid' });
    }
  });
});
