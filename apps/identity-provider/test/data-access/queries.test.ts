import { describe, expect, it } from '@jest/globals';
import { addCredential } from '@svc/admin';
import { ZPredicateResponse, ZPresetError, ZProjectionResponse } from '@svc/schemas';
import request from 'supertest';
import { arrangeData, KYC_EXPIRES } from '../data-helpers.js';
import { useIdp } from '../helpers.js';

const suite = useIdp();
const BASIC = 'openid identity:read profile.full kyc:read financial:read data.read';

const evaluate = (token: string, query: unknown) => request(suite.idp.app).post('/v2/queries/evaluate').set('Authorization', `Bearer ${token}`).send({ query });

describe('POST /v2/queries/evaluate', () => {
  it('evaluates a nested policy with evidence of each claim used and each check, expiring with the earliest credential', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    const res = await evaluate(d.accessToken, {
      policy: {
        allOf: [
          { claim: 'age', operator: '>=', value: 18 },
          {
            anyOf: [
              { claim: 'nationality', operator: 'in', value: ['FR', 'DE'] },
              { claim: 'kyc_passed', operator: '==', value: true },
            ],
          },
        ],
        not: { claim: 'social_accounts[0].provider', operator: '==', value: 'myspace' },
      },
    });
    expect(res.status).toBe(200);
    const body = ZPredicateResponse.parse(res.body);
    expect(body.passed).toBe(true);
    expect(body.evidence.claimsUsed).toEqual([
      { path: 'age', value: expect.any(Number), credentialId: d.ids.kyc, source: 'kyc_provider' },
      { path: 'nationality', value: 'DE', credentialId: d.ids.kyc, source: 'kyc_provider' },
      { path: 'social_accounts[0].provider', value: 'github', credentialId: d.ids.social, source: 'social_link' },
    ]);
    // anyOf stopped at nationality: kyc_passed was never checked.
    expect(body.evidence.checkResults.map((c) => [c.claim, c.operator, c.passed])).toEqual([
      ['age', '>=', true],
      ['nationality', 'in', true],
      ['social_accounts[0].provider', '==', false],
    ]);
    expect(body.expiresAt).toBe(KYC_EXPIRES.toISOString());
  });

  it('reads a pending verification as absent: only isDefined can pass on it', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    expect((await evaluate(d.accessToken, { check: { claim: 'phone', operator: 'isDefined', value: false } })).body.passed).toBe(true);
    expect((await evaluate(d.accessToken, { check: { claim: 'phone', operator: 'startsWith', value: '+49' } })).body.passed).toBe(false);
  });

  it('projects with the at, pluck and pick lenses, keyed by the claim as sent', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    const res = await evaluate(d.accessToken, {
      projections: [
        { claim: 'social_accounts', lens: { pluck: 'provider' } },
        { claim: 'social_accounts[1]', lens: { pick: ['handle', 'verified'] } },
        { claim: 'social_accounts[0]', lens: { at: 'handle' } },
        { claim: 'nationality', lens: 'at' },
        { claim: 'phone', lens: 'at' },
      ],
    });
    expect(res.status).toBe(200);
    const body = ZProjectionResponse.parse(res.body);
    expect(body.data).toEqual({
      social_accounts: ['github', 'x'],
      'social_accounts[1]': { handle: 'ax', verified: false },
      'social_accounts[0]': 'alice',
      nationality: 'DE',
      phone: null,
    });
    expect(body.claimsUsed.map((c) => c.path)).toEqual(['social_accounts', 'social_accounts[1]', 'social_accounts[0]', 'nationality']);
  });

  describe('scope enforcement covers every claim the query names', () => {
    it.each([
      [
        'a short-circuited anyOf branch',
        {
          policy: {
            anyOf: [
              { claim: 'age_over_18', operator: '==', value: true },
              { claim: 'date_of_birth', operator: '<', value: '2000-01-01' },
            ],
          },
        },
      ],
      ['a not', { policy: { not: { claim: 'date_of_birth', operator: 'isDefined' } } }],
      [
        'an allOf after a failing check',
        {
          policy: {
            allOf: [
              { claim: 'age', operator: '<', value: 0 },
              { claim: 'date_of_birth', operator: '==', value: '1990-04-12' },
            ],
          },
        },
      ],
      ['a projection', { projections: [{ claim: 'date_of_birth', lens: 'at' }] }],
      ['a path into the value', { check: { claim: 'date_of_birth.year', operator: 'isDefined' } }],
    ])('refuses a claim out of scope in %s with E4003, revealing nothing', async (_where, query) => {
      const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
      const res = await evaluate(d.accessToken, query);
      expect(res.status).toBe(403);
      expect(ZPresetError.parse(res.body)).toMatchObject({
        error_code: 'E4003',
        context: { presets: ['date_of_birth'], required_scopes: ['identity:date_of_birth'] },
      });
      expect(JSON.stringify(res.body)).not.toContain('1990');
    });
  });

  it.each([
    [
      {
        policy: {
          allOf: [
            { claim: 'age', operator: '>=', value: 18 },
            { claim: 'age', operator: '=~', value: 1 },
          ],
        },
      },
      'body.query.policy.allOf[1].operator',
    ],
    [{ check: { claim: 'age', operator: '>', value: '18' } }, 'body.query.check.value'],
    [{ check: { claim: 'nationality', operator: 'matchRegex', value: '(?=DE)' } }, 'body.query.check.value'],
    [{ check: {}, policy: {} }, 'body.query'],
    ['age >= 18', 'body.query'],
  ])('answers 400 naming the offending node of %j', async (query, field) => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    const res = await evaluate(d.accessToken, query);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ error: 'invalid_request', details: [{ field, message: expect.any(String) }] });
  });

  it('answers 400 naming the projection whose lens does not fit the value', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    const res = await evaluate(d.accessToken, { projections: [{ claim: 'nationality', lens: { pluck: 'provider' } }] });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([{ field: 'body.query.projections[0].lens', message: expect.any(String) }]);
  });

  it('answers E4044 for an unknown preset and E4042 without a valid token', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    const unknown = await evaluate(d.accessToken, { check: { claim: 'shoe_size', operator: '>', value: 40 } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error_code: 'E4044', context: { presets: ['shoe_size'] } });
    expect(
      (
        await request(suite.idp.app)
          .post('/v2/queries/evaluate')
          .send({ query: { check: { claim: 'age', operator: 'isDefined' } } })
      ).body.error_code,
    ).toBe('E4042');
  });

  it('answers a catastrophic-backtracking pattern over a long value (RE2: linear time)', async () => {
    const d = await arrangeData(suite.db, suite.idp.app, { scope: BASIC });
    // JavaScript's RegExp would backtrack for longer than the universe has existed on this one.
    await addCredential(d.ctx, {
      email: d.user.email,
      source: 'social_link',
      claims: JSON.stringify({ social_accounts: [{ provider: 'x', handle: `${'a'.repeat(5000)}!`, verified: true }] }),
    });
    const res = await evaluate(d.accessToken, { check: { claim: 'social_accounts[0].handle', operator: 'matchRegex', value: '^(a+)+$' } });
    expect(res.body).toMatchObject({ type: 'predicate', passed: false });
  });
});
