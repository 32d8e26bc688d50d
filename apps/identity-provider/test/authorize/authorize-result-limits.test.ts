// Guessing a confidential client's secret at /oauth/authorize/result is bounded like at the token
// and revocation endpoints: failures count per client and source address, each counted in one
// atomic step so parallel guesses cannot all pass, then 429; a client's own successes are never counted.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, buildIdp, issueTokens, useIdp } from '../helpers.js';
import { startAuthorization } from '../hosted-forms.js';

const suite = useIdp();
const LIMIT = 5;
let idp: ReturnType<typeof buildIdp>;
beforeAll(() => {
  idp = buildIdp({ TRUST_PROXY: 'true', AUTH_FAILURE_LIMIT: String(LIMIT) });
});
afterAll(async () => {
  await idp.deps.close();
});

describe('/oauth/authorize/result client authentication', () => {
  it('answers 429 with Retry-After once a source has failed too often for a client, by GET and POST alike', async () => {
    const a = await arrange(suite.db);
    const id = await startAuthorization(idp.app, a.confidential.client_id);
    const source = '203.0.113.81';
    const get = (secret: string, from = source) =>
      request(idp.app)
        .get('/oauth/authorize/result')
        .set('X-Forwarded-For', from)
        .set('Authorization', basic(a.confidential.client_id, secret))
        .query({ authorization_id: id });
    const post = (secret: string) =>
      request(idp.app)
        .post('/oauth/authorize/result')
        .set('X-Forwarded-For', source)
        .type('form')
        .send({ authorization_id: id, client_id: a.confidential.client_id, client_secret: secret });

    const statuses = [];
    for (let i = 0; i < LIMIT; i++) statuses.push((await (i % 2 ? post : get)(`wrong-${i}`)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(401));
    for (const refused of [await get('wrong-again'), await post('wrong-again'), await get(a.confidential.client_secret!)]) {
      expect(refused.status).toBe(429);
      expect(refused.body.error).toBe('rate_limited');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address, and the same address for another client, are not affected.
    expect((await get(a.confidential.client_secret!, '198.51.100.81')).status).toBe(200);
    const b = await arrange(suite.db);
    const other = await request(idp.app)
      .get('/oauth/authorize/result')
      .set('X-Forwarded-For', source)
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .query({ authorization_id: await startAuthorization(idp.app, b.confidential.client_id) });
    expect(other.status).toBe(200);
  });

  it('holds under concurrency: parallel wrong secrets at the token endpoint get the limit’s worth of checks, the rest 429', async () => {
    const a = await arrange(suite.db);
    const source = '203.0.113.82';
    const guesses = await Promise.all(
      Array.from({ length: 4 * LIMIT }, (_, i) =>
        request(idp.app)
          .post('/oauth/token')
          .set('X-Forwarded-For', source)
          .set('Authorization', basic(a.confidential.client_id, `wrong-${i}`))
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: 'x' }),
      ),
    );
    const statuses = guesses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(3 * LIMIT);
  });

  it('counts failures only: a client’s own parallel requests from one address are never refused as failures', async () => {
    const a = await arrange(suite.db);
    await issueTokens(idp.app, a);
    const source = '203.0.113.83';
    const answers = await Promise.all(
      Array.from({ length: 4 * LIMIT }, () =>
        request(idp.app)
          .post('/oauth/client/user-token')
          .set('X-Forwarded-For', source)
          .send({ client_id: a.confidential.client_id, client_secret: a.confidential.client_secret, email: a.user.email }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(4 * LIMIT).fill(200));
  });
});
