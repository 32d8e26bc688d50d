// The capacity model's inputs, measured: how many PostgreSQL statements and Redis commands each hot
// path of the identity provider costs per request once its caches are warm. infra/README.md
// ("Capacity model") prints the same figures; this test measures them and holds the page to them,
// so the page cannot drift from the code.
import { describe, it } from '@jest/globals';
import { createAction } from '@svc/admin';
import { expectDocumented, type HotPath, measureHotPaths } from '@svc/testkit/capacity';
import request from 'supertest';
import { arrangeData } from '../data-helpers.js';
import { basic, useIdp } from '../helpers.js';

// Limits high enough for the rounds below: what a limit costs is counted, not what it refuses. No
// read replica, even on a run that has one: the page's figures are for one PostgreSQL.
const suite = useIdp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_PER_GRANT: '100000', DATABASE_READ_URL: '' });
const SCOPE = 'openid identity:read identity:date_of_birth kyc:read financial:read financial:net_worth profile.full';
const TEN = ['age_over_18', 'age_over_21', 'age', 'kyc_passed', 'nationality', 'date_of_birth', 'is_human', 'service_uuid', 'net_worth_total', 'email'];
const FIVE_CHECKS = {
  policy: {
    allOf: [
      { claim: 'age', operator: '>=', value: 18 },
      { claim: 'kyc_passed', operator: '==', value: true },
      {
        anyOf: [
          { claim: 'nationality', operator: 'in', value: ['DE', 'FR'] },
          { claim: 'net_worth_total', operator: '>', value: 1000 },
        ],
      },
      { not: { claim: 'nationality', operator: '==', value: 'XX' } },
    ],
  },
};

describe('statements and Redis commands per request (infra/README.md, "Capacity model")', () => {
  it('are what the capacity model says, for every hot path', async () => {
    const { app } = suite.idp;
    const a = await arrangeData(suite.db, app, { scope: SCOPE });
    await createAction(a.ctx, { org: a.org.id, action: 'capacity-vote', maxPerPerson: 1_000_000, requiresPalmVerification: false });
    const bearer = { Authorization: `Bearer ${a.accessToken}` };
    let refresh = a.refreshToken;
    // The requests warm the grant cache, the preset cache, the client cache and prepared statements.
    const paths: HotPath[] = [
      { path: 'GET /v2/userinfo', send: () => request(app).get('/v2/userinfo').set(bearer) },
      { path: 'GET /v2/presets/{name}', send: () => request(app).get('/v2/presets/age_over_18').set(bearer) },
      { path: 'POST /v2/presets/batch', send: () => request(app).post('/v2/presets/batch').set(bearer).send({ presets: TEN }) },
      { path: 'POST /v2/queries/evaluate', send: () => request(app).post('/v2/queries/evaluate').set(bearer).send({ query: FIVE_CHECKS }) },
      {
        path: 'POST /oauth/client/user-token',
        send: () =>
          request(app)
            .post('/oauth/client/user-token')
            .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, email: a.user.email }),
      },
      {
        path: 'POST /oauth/token (refresh)',
        send: async () => {
          const res = await request(app)
            .post('/oauth/token')
            .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
            .type('form')
            .send({ grant_type: 'refresh_token', refresh_token: refresh });
          refresh = res.body.refresh_token;
          return res;
        },
      },
      { path: 'POST /v2/actions/{action}/proofs', send: () => request(app).post('/v2/actions/capacity-vote/proofs').set(bearer).send({}) },
    ];
    expectDocumented('identity provider', await measureHotPaths(suite.idp.deps.store, paths));
  });
});
