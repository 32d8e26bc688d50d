import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, basic, issueTokens, useIdp } from './helpers.js';

// Rotation, reuse detection and scope narrowing of refresh tokens (RFC 9700 §4.14), through HTTP.
const suite = useIdp();

/** Tokens from the whole flow (sign-in, consent, code exchange) for `a`'s confidential client. */
async function tokensFor(a: Awaited<ReturnType<typeof arrange>>) {
  const token = (await issueTokens(suite.idp.app, a)) as Awaited<ReturnType<typeof issueTokens>> & { granted_scopes: string[] };
  return { token };
}

describe('refresh tokens', () => {
  it('rotate; reusing a rotated one revokes the family', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const refreshWith = (rt: string) =>
      request(suite.idp.app)
        .post('/oauth/token')
        .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
        .send({ grant_type: 'refresh_token', refresh_token: rt });
    const second = await refreshWith(token.refresh_token);
    expect(second.status).toBe(200);
    const reuse = await refreshWith(token.refresh_token);
    expect(reuse.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was already used; every token of this grant is revoked',
      request_id: expect.any(String),
    });
    expect((await refreshWith(second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  it('lets exactly one of parallel refreshes of one token succeed, and revokes the family', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        request(suite.idp.app)
          .post('/oauth/token')
          .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
          .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => r.status === 400).map((r) => r.body.error)).toEqual(Array(4).fill('invalid_grant'));
    // The losers saw a reuse: the winner's new token belongs to the revoked family too.
    const next = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: winners[0]!.body.refresh_token });
    expect(next.body.error).toBe('invalid_grant');
  });

  it('narrows to the asked scopes in granted order, and the successor keeps only those', async () => {
    const a = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const refreshWith = (body: object) =>
      request(suite.idp.app)
        .post('/oauth/token')
        .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
        .send({ grant_type: 'refresh_token', ...body });
    const granted: string[] = token.granted_scopes;
    expect(granted).toContain('openid');
    expect(granted.length).toBeGreaterThan(2);
    const kept = [granted[0]!, granted.at(-1)!];
    const narrowed = await refreshWith({ refresh_token: token.refresh_token, scope: `${kept[1]} ${kept[0]} ${kept[1]}` });
    expect(narrowed.body).toMatchObject({ scope: kept.join(' '), granted_scopes: kept });
    const next = await refreshWith({ refresh_token: narrowed.body.refresh_token });
    expect(next.body.granted_scopes).toEqual(kept);
    // A refused request rotates nothing: the token still works afterwards.
    expect((await refreshWith({ refresh_token: next.body.refresh_token, scope: granted[1] })).body.error).toBe('invalid_scope');
    expect((await refreshWith({ refresh_token: next.body.refresh_token, scope: ' ' })).body.error).toBe('invalid_request');
    expect((await refreshWith({ refresh_token: next.body.refresh_token })).status).toBe(200);
  });

  it('refuses a wider scope and a token presented by another client', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const { token } = await tokensFor(a);
    const wider = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token, scope: 'openid kyc:read' });
    expect(wider.body.error).toBe('invalid_scope');
    const stolen = await request(suite.idp.app)
      .post('/oauth/token')
      .set('Authorization', basic(b.confidential.client_id, b.confidential.client_secret!))
      .send({ grant_type: 'refresh_token', refresh_token: token.refresh_token });
    expect(stolen.body).toEqual({
      error: 'invalid_grant',
      error_description: 'The refresh token was issued to another client',
      request_id: expect.any(String),
    });
  });
});
