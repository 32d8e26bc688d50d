import { describe, expect, it } from '@jest/globals';
import { addCredential } from '@svc/admin';
import { ZPresetBatchResponse, ZPresetError, ZPresetList, ZPresetResult } from '@svc/schemas';
import request from 'supertest';
import { arrangeData, KYC_EXPIRES } from '../data-helpers.js';
import { basic, eventually, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;
const BASIC = 'openid identity:read profile.full kyc:read financial:read data.read';

const preset = (token: string, name: string) =>
  request(app())
    .get(`/v2/presets/${encodeURIComponent(name)}`)
    .set('Authorization', `Bearer ${token}`);
const batch = (token: string, body: unknown) =>
  request(app())
    .post('/v2/presets/batch')
    .set('Authorization', `Bearer ${token}`)
    .send(body as object);

function expectPresetError(res: request.Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(ZPresetError.parse(res.body).error_code).toBe(code);
}

describe('GET /v2/presets', () => {
  it('lists all 42 presets with scope, type, format and texts, without a token', async () => {
    const res = await request(app()).get('/v2/presets');
    expect(res.status).toBe(200);
    const { presets } = ZPresetList.parse(res.body);
    expect(presets).toHaveLength(42);
    expect(presets.find((p) => p.name === 'age_over_18')).toEqual({
      name: 'age_over_18',
      scope: 'identity:read',
      category: 'identity',
      description: expect.any(String),
      consentText: expect.any(String),
      type: 'boolean',
      sensitivity: 'low',
      derived: true,
      parentField: 'date_of_birth',
      format: 'true or false',
    });
    expect(presets.find((p) => p.name === 'net_worth_total')).toMatchObject({ scope: 'financial:net_worth', type: 'number', format: 'number, USD' });
    expect(presets.find((p) => p.name === 'residency_region')?.enumValues).toContain('EU');
  });
});

describe('GET /v2/presets/{preset_name}', () => {
  it('answers a verified value with its evidence, verification time and the earlier of window end and credential expiry', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    const res = await preset(d.accessToken, 'nationality');
    expect(res.status).toBe(200);
    expect(ZPresetResult.parse(res.body)).toEqual({
      preset: 'nationality',
      value: 'DE',
      status: 'valid',
      // The data window (3600 s from approval) ends long before the credential's 30 days.
      expires_at: expect.any(String),
      verified_at: expect.any(String),
      evidence: { source: 'kyc_provider', credential_id: d.ids.kyc },
    });
    const expiresAt = Date.parse(res.body.expires_at);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 3600_000);
    expect(expiresAt).toBeLessThan(KYC_EXPIRES.getTime());
  });

  it('derives age and age_over_18 from the date of birth without the date_of_birth scope, which stays refused', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    const age = await preset(d.accessToken, 'age');
    const now = new Date();
    const expected = now.getUTCFullYear() - 1990 - (now.getUTCMonth() + 1 < 4 || (now.getUTCMonth() + 1 === 4 && now.getUTCDate() < 12) ? 1 : 0);
    expect(age.body).toMatchObject({ preset: 'age', value: expected, status: 'valid', evidence: { derived_from: 'date_of_birth', credential_id: d.ids.kyc } });
    expect((await preset(d.accessToken, 'age_over_18')).body).toMatchObject({ value: true, status: 'valid' });
    expect((await preset(d.accessToken, 'net_worth_above_100k')).body).toMatchObject({ value: true, evidence: { derived_from: 'net_worth_total' } });
    const dob = await preset(d.accessToken, 'date_of_birth');
    expectPresetError(dob, 403, 'E4003');
    expect(dob.body).toEqual({
      error: 'insufficient_scope',
      error_code: 'E4003',
      error_description: expect.stringContaining('identity:date_of_birth'),
      context: { preset: 'date_of_birth', required_scope: 'identity:date_of_birth' },
      request_id: expect.any(String),
    });
  });

  it.each([
    ['phone', 'verification_pending'],
    ['email', 'verification_revoked'],
    ['legal_name', 'verification_incomplete'],
  ])('answers E4004 (409) for %s: %s', async (name, subcode) => {
    const d = await arrangeData(suite.db, app(), { scope: `${BASIC} identity:legal_name` });
    const res = await preset(d.accessToken, name);
    expectPresetError(res, 409, 'E4004');
    expect(res.body.error_subcode).toBe(subcode);
  });

  it('reports an expired credential and a malformed stored value as statuses, not errors', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    expect((await preset(d.accessToken, 'residency_region')).body).toMatchObject({
      preset: 'residency_region',
      value: null,
      status: 'expired',
      evidence: { source: 'old_check' },
    });
    expect((await preset(d.accessToken, 'service_score')).body).toMatchObject({ preset: 'service_score', value: null, status: 'unavailable' });
  });

  it('answers E4044 (404) for an unknown name, and E4042 for a missing, tampered or foreign-signed token', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    expectPresetError(await preset(d.accessToken, 'shoe_size'), 404, 'E4044');
    const missing = await request(app()).get('/v2/presets/age');
    expectPresetError(missing, 401, 'E4042');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer /);
    const [h, p, s] = d.accessToken.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const widened = Buffer.from(JSON.stringify({ ...payload, scope: `${payload.scope} identity:date_of_birth` })).toString('base64url');
    expectPresetError(await preset(`${h}.${widened}.${s}`, 'date_of_birth'), 401, 'E4042');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${p}.`;
    expectPresetError(await preset(unsigned, 'age'), 401, 'E4042');
  });

  it('answers E4041 for an expired token and E4010 once the data window is over', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC, presetCacheTtl: 60, accessTokenTtl: 600 });
    expect((await preset(d.accessToken, 'age')).status).toBe(200);
    const realNow = suite.idp.deps.clock.now;
    try {
      suite.idp.deps.clock.now = () => new Date(Date.now() + 120_000);
      const over = await preset(d.accessToken, 'age');
      expectPresetError(over, 401, 'E4010');
      expect(over.body.context).toMatchObject({ authorization_id: d.authorizationId });
      suite.idp.deps.clock.now = () => new Date(Date.now() + 700_000);
      expectPresetError(await preset(d.accessToken, 'age'), 401, 'E4041');
    } finally {
      suite.idp.deps.clock.now = realNow;
    }
  });

  it('refuses a revoked token at once with E4042', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    expect((await preset(d.accessToken, 'nationality')).status).toBe(200);
    const revoked = await request(app())
      .post('/oauth/revoke')
      .set('Authorization', basic(d.confidential.client_id, d.confidential.client_secret!))
      .send({ token: d.accessToken });
    expect(revoked.body.revoked_count).toBe(1);
    const res = await preset(d.accessToken, 'nationality');
    expectPresetError(res, 401, 'E4042');
    expect(res.body.error_subcode).toBe('token_revoked');
  });

  it('sees a narrower refreshed token’s scopes, not the authorization’s', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    const refreshed = await request(app())
      .post('/oauth/token')
      .set('Authorization', basic(d.confidential.client_id, d.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: d.refreshToken, scope: 'openid identity:read' });
    expect(refreshed.status).toBe(200);
    expect((await preset(refreshed.body.access_token, 'nationality')).status).toBe(200);
    expectPresetError(await preset(refreshed.body.access_token, 'kyc_passed'), 403, 'E4003');
  });
});

describe('POST /v2/presets/batch', () => {
  it('answers results and errors side by side, each distinct name once, in the order asked', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    const res = await batch(d.accessToken, { presets: ['age_over_18', 'phone', 'age_over_18', 'date_of_birth', 'shoe_size', 'social_accounts', 'kyc_passed'] });
    expect(res.status).toBe(200);
    const body = ZPresetBatchResponse.parse(res.body);
    expect(body.results.map((r) => [r.preset, r.value])).toEqual([
      ['age_over_18', true],
      [
        'social_accounts',
        [
          { provider: 'github', handle: 'alice', verified: true },
          { provider: 'x', handle: 'ax', verified: false },
        ],
      ],
      ['kyc_passed', true],
    ]);
    expect(body.errors.map((e) => [e.preset, e.error.error_code])).toEqual([
      ['phone', 'E4004'],
      ['date_of_birth', 'E4003'],
      ['shoe_size', 'E4044'],
    ]);
  });

  it.each([
    [{ presets: [] }, 'body.presets', 'at least one'],
    [{ presets: Array.from({ length: 51 }, (_, i) => `p${i}`) }, 'body.presets', 'at most 50'],
    [{ presets: 'age' }, 'body.presets', ''],
    [{ presets: ['age', 7] }, 'body.presets[1]', ''],
    [{}, 'body.presets', ''],
  ])('refuses %j with 400 naming %s', async (body, field, message) => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    const res = await batch(d.accessToken, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: [{ field, message: expect.stringContaining(message) }] });
  });

  it('answers 401 E4042 for the whole batch without a valid token', async () => {
    expectPresetError(await batch('not-a-token', { presets: ['age'] }), 401, 'E4042');
  });

  // A change made elsewhere (the admin CLI here) reaches the service through PostgreSQL's
  // notification, so the test waits for it within the grant cache's bound.
  it('shows a change to the user’s credentials once PostgreSQL announces it', async () => {
    const d = await arrangeData(suite.db, app(), { scope: BASIC });
    expect((await batch(d.accessToken, { presets: ['nationality', 'phone'] })).body.results).toEqual([
      expect.objectContaining({ preset: 'nationality', value: 'DE' }),
    ]);
    await addCredential(d.ctx, { email: d.user.email, source: 'passport', claims: JSON.stringify({ nationality: 'FR', phone: '+33123456789' }) });
    await eventually(async () => (await batch(d.accessToken, { presets: ['nationality'] })).body.results[0]?.value === 'FR', 2_000);
    const after = await batch(d.accessToken, { presets: ['nationality', 'phone'] });
    expect(after.body.results.map((r: { preset: string; value: unknown }) => [r.preset, r.value])).toEqual([
      ['nationality', 'FR'],
      ['phone', '+33123456789'],
    ]);
    expect(after.body.errors).toEqual([]);
  });
});
