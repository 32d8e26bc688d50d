// The capacity model's inputs, measured: how many PostgreSQL statements and Redis commands each hot
// path of the identity provider costs per request once its caches are warm. infra/README.md
// ("Capacity model") prints the same figures; this test measures them and holds the page to them,
// so the page cannot drift from the code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { createAction } from '@svc/admin';
import { countStatements } from '@svc/db';
import type { RedisStore } from '@svc/kv';
import { repoRoot, testRedisUrl } from '@svc/testkit';
import request from 'supertest';
import { arrangeData } from '../data-helpers.js';
import { basic, useIdp } from '../helpers.js';

// Limits high enough for the rounds below: what a limit costs is counted, not what it refuses.
const suite = useIdp({ RATE_LIMIT_DEFAULT: '100000', RATE_LIMIT_PER_GRANT: '100000' });
const counter = countStatements();
const ROUNDS = 20;
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

/** Redis commands sent by the service's store, counted where it sends them. */
function redisCounter(): () => number {
  let sent = 0;
  const store = suite.idp.deps.store;
  if (store.kind !== 'redis') return () => 0;
  const redis = (store as RedisStore).redis as unknown as { sendCommand: (...args: unknown[]) => unknown };
  const send = redis.sendCommand.bind(redis);
  redis.sendCommand = (...args: unknown[]) => {
    sent++;
    return send(...args);
  };
  return () => sent;
}

/** The table of infra/README.md's capacity model: path → [statements, commands]. */
function documented(): Map<string, [number, number]> {
  const page = readFileSync(join(repoRoot, 'infra', 'README.md'), 'utf8');
  const table = page.slice(page.indexOf('<!-- capacity:begin -->'), page.indexOf('<!-- capacity:end -->'));
  const rows = [...table.matchAll(/^\| `([^`]+)` \| [^|]* \| (\d+) \| (\d+) \|$/gm)];
  return new Map(rows.map((r) => [r[1]!, [Number(r[2]), Number(r[3])]]));
}

describe('statements and Redis commands per request (infra/README.md, "Capacity model")', () => {
  it('are what the capacity model says, for every hot path', async () => {
    const { app } = suite.idp;
    const a = await arrangeData(suite.db, app, { scope: SCOPE });
    await createAction(a.ctx, { org: a.org.id, action: 'capacity-vote', maxPerPerson: 1_000_000, requiresPalmVerification: false });
    const bearer = { Authorization: `Bearer ${a.accessToken}` };
    let refresh = a.refreshToken;
    const paths: [string, () => Promise<request.Response>][] = [
      ['GET /v2/userinfo', () => request(app).get('/v2/userinfo').set(bearer)],
      ['GET /v2/presets/{name}', () => request(app).get('/v2/presets/age_over_18').set(bearer)],
      ['POST /v2/presets/batch', () => request(app).post('/v2/presets/batch').set(bearer).send({ presets: TEN })],
      ['POST /v2/queries/evaluate', () => request(app).post('/v2/queries/evaluate').set(bearer).send({ query: FIVE_CHECKS })],
      [
        'POST /oauth/client/user-token',
        () =>
          request(app)
            .post('/oauth/client/user-token')
            .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, email: a.user.email }),
      ],
      [
        'POST /oauth/token (refresh)',
        async () => {
          const res = await request(app)
            .post('/oauth/token')
            .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
            .type('form')
            .send({ grant_type: 'refresh_token', refresh_token: refresh });
          refresh = res.body.refresh_token;
          return res;
        },
      ],
      ['POST /v2/actions/{action}/proofs', () => request(app).post('/v2/actions/capacity-vote/proofs').set(bearer).send({})],
    ];
    const commands = redisCounter();
    const measured = new Map<string, [number, number]>();
    for (const [path, call] of paths) {
      // Warm: the grant cache, the preset cache, the client cache, prepared statements.
      for (let i = 0; i < 3; i++) {
        const res = await call();
        expect({ path, status: res.status, body: res.status < 300 ? undefined : res.body }).toEqual({
          path,
          status: res.status < 300 ? res.status : 200,
          body: undefined,
        });
      }
      const [statements, sent] = [counter.statements(), commands()];
      for (let i = 0; i < ROUNDS; i++) expect((await call()).status).toBeLessThan(300);
      measured.set(path, [Math.round((counter.statements() - statements) / ROUNDS), Math.round((commands() - sent) / ROUNDS)]);
    }
    const page = documented();
    for (const [path, [statements, sent]] of measured) {
      const [pageStatements, pageCommands] = page.get(path) ?? [Number.NaN, Number.NaN];
      expect({ path, statements }).toEqual({ path, statements: pageStatements });
      // Redis is counted where the run has one (CI); the embedded default keeps its state in-process.
      if (testRedisUrl()) expect({ path, commands: sent }).toEqual({ path, commands: pageCommands });
    }
    expect([...page.keys()].sort()).toEqual([...measured.keys()].sort());
  });
});
