import { describe, expect, it } from '@jest/globals';
import { createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import request from 'supertest';
import { arrange, buildIdp, exchangeWith, obtainCode, signIn, useIdp } from '../helpers.js';

const suite = useIdp();

describe('the per-grant share of a client’s rate limit', () => {
  it('refuses one grant’s flood while the other users of the same public client keep reading and refreshing', async () => {
    // A still clock: no rate window can end in the middle of the test.
    const at = new Date();
    // Every request here comes from one address: its share is the whole budget (the next test is about it).
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '6', RATE_LIMIT_PER_GRANT: '3', RATE_LIMIT_PER_SOURCE: '6', RATE_LIMIT_UNIT: 'hour' }, { now: () => at });
    const app = limited.app;
    try {
      const a = await arrange(suite.db);
      const third = await createUser(a.ctx, { email: uniqueEmail('carol'), password: a.user.password, palmVerified: true });
      const grantOf = async (email: string) => {
        const session = await signIn(app, email, a.user.password);
        const { code, verifier } = await obtainCode(app, a.publicClient.client_id, session);
        const res = await exchangeWith(app, a.publicClient, { code, code_verifier: verifier });
        expect(res.status).toBe(200);
        return { access: res.body.access_token as string, refresh: res.body.refresh_token as string };
      };
      const [flooder, neighbour, latecomer] = [await grantOf(a.user.email), await grantOf(a.other.email), await grantOf(third.email)];
      const userinfo = (token: string) => request(app).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
      const refresh = (refreshToken: string) =>
        request(app).post('/oauth/token').type('form').send({ grant_type: 'refresh_token', client_id: a.publicClient.client_id, refresh_token: refreshToken });

      // One end user floods user info with their own token: only their share goes through.
      const flood = [];
      for (let i = 0; i < 10; i++) flood.push(await userinfo(flooder.access));
      expect(flood.map((r) => r.status)).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
      expect(flood[3]!.body.error).toBe('rate_limited');
      expect(flood[3]!.headers['x-ratelimit-limit']).toBe('3');
      expect(Number(flood[3]!.headers['retry-after'])).toBeGreaterThan(0);

      // The refused requests cost the client nothing: another user of the same SPA still gets the
      // whole rest of the client's budget, on user info and on the data API alike.
      expect((await userinfo(neighbour.access)).status).toBe(200);
      expect((await request(app).get('/v2/presets/service_uuid').set('Authorization', `Bearer ${neighbour.access}`)).status).toBe(200);
      expect((await userinfo(neighbour.access)).status).toBe(200);
      // The client's own budget still binds: it is used up now (3 + 3 of 6).
      expect((await userinfo(latecomer.access)).status).toBe(429);

      // Token renewal has a budget resource reads cannot use up: both users still refresh.
      const renewed = await refresh(flooder.refresh);
      expect(renewed.status).toBe(200);
      expect((await refresh(neighbour.refresh)).status).toBe(200);
      expect((await refresh(latecomer.refresh)).status).toBe(200);

      expect((await request(app).get('/.well-known/svc-configuration')).body).toMatchObject({
        rate_limit_default: 6,
        rate_limit_unit: 'hour',
        rate_limit_per_grant: 3,
        rate_limit_per_source: 6,
      });
    } finally {
      await limited.deps.close();
    }
  });

  it('gives one address one share of a public client however many accounts sign in there (attack: ten accounts)', async () => {
    const at = new Date();
    const limited = buildIdp(
      { RATE_LIMIT_DEFAULT: '12', RATE_LIMIT_PER_GRANT: '2', RATE_LIMIT_PER_SOURCE: '4', RATE_LIMIT_UNIT: 'hour', TRUST_PROXY: 'true' },
      { now: () => at },
    );
    const app = limited.app;
    const [attacker, elsewhere] = ['203.0.113.9', '198.51.100.7'];
    try {
      const a = await arrange(suite.db);
      const grantAt = async (email: string, source: string) => {
        const session = await signIn(app, email, a.user.password);
        const { code, verifier } = await obtainCode(app, a.publicClient.client_id, session);
        return exchangeWith(app, a.publicClient, { code, code_verifier: verifier }).set('X-Forwarded-For', source);
      };
      // Six accounts of one person on one address: four code exchanges fit its share, then 429.
      const accounts = [];
      for (let i = 0; i < 6; i++) accounts.push(await createUser(a.ctx, { email: uniqueEmail('sock'), password: a.user.password, palmVerified: true }));
      const exchanges = [];
      for (const account of accounts) exchanges.push(await grantAt(account.email, attacker));
      expect(exchanges.map((r) => r.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expect(exchanges[4]!.body.error_description).toBe('This address is over 4 token requests per hour');
      // Their reads: each account's share is 2, the address's 4, whatever the number of accounts.
      const reads = [];
      for (const t of exchanges.slice(0, 4))
        for (let i = 0; i < 2; i++)
          reads.push((await request(app).get('/v2/userinfo').set('X-Forwarded-For', attacker).set('Authorization', `Bearer ${t.body.access_token}`)).status);
      expect(reads.filter((s) => s === 200)).toHaveLength(4);
      // Everyone elsewhere keeps the rest of the client's budget.
      const real = await grantAt(a.other.email, elsewhere);
      expect(real.status).toBe(200);
      const read = await request(app).get('/v2/userinfo').set('X-Forwarded-For', elsewhere).set('Authorization', `Bearer ${real.body.access_token}`);
      expect(read.status).toBe(200);
      expect((await request(app).get('/.well-known/svc-configuration')).body).toMatchObject({ rate_limit_per_grant: 2, rate_limit_per_source: 4 });
    } finally {
      await limited.deps.close();
    }
  });

  it('gives one end user one share however many grants of the client they hold', async () => {
    const at = new Date();
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '20', RATE_LIMIT_PER_GRANT: '3', RATE_LIMIT_PER_SOURCE: '20', RATE_LIMIT_UNIT: 'hour' }, { now: () => at });
    const app = limited.app;
    try {
      const a = await arrange(suite.db);
      // One person authorizes the same SPA three times (each approval a grant of its own) and floods with every token.
      const session = await signIn(app, a.user.email, a.user.password);
      const tokens = [];
      for (let i = 0; i < 3; i++) {
        const { code, verifier } = await obtainCode(app, a.publicClient.client_id, session);
        const res = await exchangeWith(app, a.publicClient, { code, code_verifier: verifier });
        expect(res.status).toBe(200);
        tokens.push(res.body as { access_token: string; refresh_token: string });
      }
      const statuses = [];
      for (const t of tokens)
        for (let i = 0; i < 3; i++) statuses.push((await request(app).get('/v2/userinfo').set('Authorization', `Bearer ${t.access_token}`)).status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(3);
      // Their token requests share one allowance too: a fourth code exchange is over it.
      const fourth = await obtainCode(app, a.publicClient.client_id, session);
      expect((await exchangeWith(app, a.publicClient, { code: fourth.code, code_verifier: fourth.verifier })).status).toBe(429);
      // The client's budget is left for everyone else.
      const session2 = await signIn(app, a.other.email, a.user.password);
      const { code, verifier } = await obtainCode(app, a.publicClient.client_id, session2);
      const other = await exchangeWith(app, a.publicClient, { code, code_verifier: verifier });
      const read = await request(app).get('/v2/userinfo').set('Authorization', `Bearer ${other.body.access_token}`);
      expect([read.status, read.body]).toEqual([200, expect.anything()]);
    } finally {
      await limited.deps.close();
    }
  });
});
