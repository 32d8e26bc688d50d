import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';

const suite = useIdp();

describe('strangers cannot use up a public client’s rate limit', () => {
  it('keeps serving the real users while one address floods the token endpoint with the client’s id', async () => {
    // A still clock: no rate window can end in the middle of the test.
    const at = new Date();
    const limited = buildIdp({ RATE_LIMIT_DEFAULT: '20', TRUST_PROXY: 'true' }, { now: () => at });
    try {
      const a = await arrange(suite.db);
      const flood = [];
      for (let i = 0; i < 40; i++) {
        flood.push(
          (
            await request(limited.app)
              .post('/oauth/token')
              .set('X-Forwarded-For', '203.0.113.9')
              .type('form')
              .send({
                grant_type: 'authorization_code',
                client_id: a.publicClient.client_id,
                code: `svccode_${i}`,
                redirect_uri: REDIRECT,
                code_verifier: 'x'.repeat(43),
              })
          ).status,
        );
      }
      expect(flood).toContain(429);
      const session = await signIn(limited.app, a.user.email, a.user.password);
      const { code, verifier } = await obtainCode(limited.app, a.publicClient.client_id, session);
      const real = await request(limited.app)
        .post('/oauth/token')
        .set('X-Forwarded-For', '198.51.100.7')
        .type('form')
        .send({ grant_type: 'authorization_code', client_id: a.publicClient.client_id, code, redirect_uri: REDIRECT, code_verifier: verifier });
      expect(real.status).toBe(200);
    } finally {
      await limited.deps.close();
    }
  });
});
