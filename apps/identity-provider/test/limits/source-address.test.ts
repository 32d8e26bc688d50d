import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, REDIRECT, useIdp } from '../helpers.js';

const suite = useIdp();

describe('POST /oauth/token failures from IPv6 sources', () => {
  it('counts every address of one /64 as one source, and another /64 apart', async () => {
    const at = new Date();
    const limited = buildIdp({ TRUST_PROXY: 'true', AUTH_FAILURE_LIMIT: '3' }, { now: () => at });
    try {
      const a = await arrange(suite.db);
      const fail = (from: string) =>
        request(limited.app)
          .post('/oauth/token')
          .set('X-Forwarded-For', from)
          .type('form')
          .send({
            grant_type: 'authorization_code',
            client_id: a.publicClient.client_id,
            code: 'svccode_x',
            redirect_uri: REDIRECT,
            code_verifier: 'x'.repeat(43),
          });
      const statuses = [];
      // A new address of the same /64 for every guess.
      for (let i = 1; i <= 5; i++) statuses.push((await fail(`2001:db8:aa:bb::${i.toString(16)}`)).status);
      expect(statuses).toEqual([400, 400, 400, 429, 429]);
      expect((await fail('2001:db8:aa:cc::1')).status).toBe(400);
    } finally {
      await limited.deps.close();
    }
  });
});
