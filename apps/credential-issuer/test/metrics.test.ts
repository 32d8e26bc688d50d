import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { buildIssuer, SUBJECT, useIssuer } from './helpers.js';

const suite = useIssuer();

describe('GET /metrics', () => {
  it('counts credentials issued, newly revoked and verified', async () => {
    const own = buildIssuer();
    try {
      const send = (path: string, body: unknown) =>
        request(own.app)
          .post(path)
          .set('X-API-Token', suite.token)
          .send(body as object);
      const { credential } = (await send('/credentials/issue', { subject_address: SUBJECT, claims: { tier: 1 } })).body;
      await send('/credentials/revoke', { credential_id: credential.id });
      await send('/credentials/revoke', { credential_id: credential.id });
      expect((await send('/credentials/verify', { credential })).body.verified).toBe(false);
      const text = (await request(own.app).get('/metrics')).text;
      expect(text).toMatch(/^credentials_issued_total\{request="spec",service="credential-issuer"\} 1$/m);
      expect(text).toMatch(/^credentials_revoked_total\{service="credential-issuer"\} 1$/m);
      expect(text).toMatch(/^credentials_verified_total\{verified="false",service="credential-issuer"\} 1$/m);
    } finally {
      await own.deps.close();
    }
  });
});
