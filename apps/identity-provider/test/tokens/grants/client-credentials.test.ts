import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, basic, issueTokens, useIdp } from '../../helpers.js';

// The client_credentials grant (RFC 6749 §4.4): a confidential client's token for itself, for its
// organization's change list; never a user's data.
const suite = useIdp();
const app = () => suite.idp.app;
type Client = { client_id: string; client_secret?: string | null };

const clientToken = (client: Client, body: Record<string, string> = {}) =>
  request(app())
    .post('/oauth/token')
    .type('form')
    .set('Authorization', basic(client.client_id, client.client_secret!))
    .send({ grant_type: 'client_credentials', ...body });
const changeList = (authorization: string) => request(app()).get('/v2/authorizations').set('Authorization', authorization);

describe('the client_credentials grant', () => {
  it('gives a confidential client a token for itself: its own sub, client scopes, no user, no refresh token', async () => {
    const a = await arrange(suite.db);
    const res = await clientToken(a.confidential);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      scope: 'authorizations:read',
      issued_at: expect.any(String),
    });
    const claims = decodeJwt(res.body.access_token);
    expect(claims).toMatchObject({ sub: a.confidential.client_id, client_id: a.confidential.client_id, scope: 'authorizations:read' });
    expect(claims.authorization_id).toBeUndefined();
  });

  it.each([['openid'], ['kyc:read'], ['authorizations:read identity:read'], ['profile.full']])(
    'refuses a scope of user data (%s) with invalid_scope, and issues nothing',
    async (scope) => {
      const a = await arrange(suite.db);
      const res = await clientToken(a.confidential, { scope });
      expect(res.status).toBe(400);
      expect(res.body.error).toBe('invalid_scope');
      expect(res.body.access_token).toBeUndefined();
    },
  );

  it('refuses a public client (unauthorized_client) and a wrong secret (invalid_client)', async () => {
    const a = await arrange(suite.db);
    const asPublic = await request(app()).post('/oauth/token').type('form').send({ grant_type: 'client_credentials', client_id: a.publicClient.client_id });
    expect(asPublic.status).toBe(400);
    expect(asPublic.body.error).toBe('unauthorized_client');
    const wrong = await clientToken({ client_id: a.confidential.client_id, client_secret: 'svcs_wrong' });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
  });
});

describe('a client token at the resources', () => {
  it('reads its own organization’s change list, and only that', async () => {
    const a = await arrange(suite.db);
    const b = await arrange(suite.db);
    const granted = await issueTokens(app(), a);
    await issueTokens(app(), b);
    const token = (await clientToken(a.confidential)).body.access_token;
    const list = await changeList(`Bearer ${token}`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { authorization_id: string }) => i.authorization_id)).toEqual([granted.authorizationId]);
  });

  it('is no user’s token: user info, presets and queries refuse it', async () => {
    const a = await arrange(suite.db);
    const token = (await clientToken(a.confidential)).body.access_token;
    expect((await request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`)).status).toBe(401);
    expect((await request(app()).get('/v2/presets/age_over_18').set('Authorization', `Bearer ${token}`)).status).toBe(401);
  });

  it('a user’s access token does not open the change list as a client token', async () => {
    const a = await arrange(suite.db);
    const t = await issueTokens(app(), a);
    const res = await changeList(`Bearer ${t.access_token}`);
    expect(res.status).toBe(401);
    expect(res.body.error).toBe('invalid_token');
  });

  it('is revocable, and introspection says whether it lives', async () => {
    const a = await arrange(suite.db);
    const token = (await clientToken(a.confidential)).body.access_token;
    const auth = basic(a.confidential.client_id, a.confidential.client_secret!);
    expect((await request(app()).post('/oauth/introspect').set('Authorization', auth).send({ token })).body).toMatchObject({
      active: true,
      sub: a.confidential.client_id,
      scope: 'authorizations:read',
    });
    const revoked = await request(app()).post('/oauth/revoke').set('Authorization', auth).send({ token });
    expect(revoked.body).toMatchObject({ revoked: true, details: [{ token_type: 'access_token', status: 'revoked' }] });
    expect((await changeList(`Bearer ${token}`)).status).toBe(401);
    expect((await request(app()).post('/oauth/introspect').set('Authorization', auth).send({ token })).body).toEqual({ active: false });
  });

  it('bound to a DPoP key, is good only with a proof of that key', async () => {
    const a = await arrange(suite.db);
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    const jwk = await exportJWK(publicKey);
    const proof = (htm: string, path: string, claims: object = {}) =>
      new SignJWT({ htm, htu: `${suite.idp.deps.config.issuer}${path}`, jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
        .setIssuedAt()
        .sign(privateKey);
    const issued = await clientToken(a.confidential).set('DPoP', await proof('POST', '/oauth/token', { nonce: suite.idp.deps.dpop.nonce() }));
    expect(issued.body.token_type).toBe('DPoP');
    const token = issued.body.access_token;
    expect((await changeList(`Bearer ${token}`)).status).toBe(401);
    const ath = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))).toString('base64url');
    const ok = await changeList(`DPoP ${token}`).set('DPoP', await proof('GET', '/v2/authorizations', { ath }));
    expect(ok.status).toBe(200);
  });
});
