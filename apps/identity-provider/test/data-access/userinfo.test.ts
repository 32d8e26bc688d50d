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
