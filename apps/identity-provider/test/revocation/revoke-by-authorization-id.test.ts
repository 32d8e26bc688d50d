import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, exchangeWith, obtainCode, signIn, useIdp } from '../helpers.js';

const suite = useIdp();
const app = () => suite.idp.app;

// One client and its two users for the file (arranging users hashes passwords, which is slow).
let shared: Promise<{ a: Awaited<ReturnType<typeof arrange>>; session: string }> | undefined;
const arranged = () => {
  shared ??= (async () => {
    const a = await arrange(suite.db);
    return { a, session: await signIn(app(), a.user.email, a.user.password) };
  })();
  return shared;
};

/** A new grant of the public client: its session, authorization id and tokens. */
async function publicGrant() {
  const { a, session } = await arranged();
  const { code, verifier, authorizationId } = await obtainCode(app(), a.publicClient.client_id, session);
  const res = await exchangeWith(app(), a.publicClient, { code, code_verifier: verifier });
  expect(res.status).toBe(200);
  return { a, session, authorizationId, accessToken: res.body.access_token as string, refreshToken: res.body.refresh_token as string };
}

const userinfo = (token: string) => request(app()).get('/v2/userinfo').set('Authorization', `Bearer ${token}`);
const revoke = (body: Record<string, unknown>) => request(app()).post('/oauth/revoke').send(body);

describe('POST /oauth/revoke by authorization_id for a public client', () => {
  it('refuses a stranger who knows only the client_id and the authorization_id, and the grant keeps working', async () => {
    const g = await publicGrant();
    const res = await revoke({ client_id: g.a.publicClient.client_id, authorization_id: g.authorizationId });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect(res.body.error_description).toMatch(/token/);
    expect((await userinfo(g.accessToken)).status).toBe(200);
    const refreshed = await request(app())
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: g.a.publicClient.client_id, refresh_token: g.refreshToken });
    expect(refreshed.status).toBe(200);
  });

  it('refuses a token of another grant of the same client as the proof', async () => {
    const g = await publicGrant();
    const session = await signIn(app(), g.a.other.email, g.a.other.password);
    const { code, verifier } = await obtainCode(app(), g.a.publicClient.client_id, session);
    const mine = await exchangeWith(app(), g.a.publicClient, { code, code_verifier: verifier });
    const res = await revoke({ client_id: g.a.publicClient.client_id, authorization_id: g.authorizationId, token: mine.body.access_token });
    expect(res.status).toBe(400);
    expect((await userinfo(g.accessToken)).status).toBe(200);
  });

  it.each(['access', 'refresh'] as const)('revokes the grant for its owner presenting its %s token', async (kind) => {
    const g = await publicGrant();
    const token = kind === 'access' ? g.accessToken : g.refreshToken;
    const res = await revoke({ client_id: g.a.publicClient.client_id, authorization_id: g.authorizationId, token });
    expect(res.status).toBe(200);
    expect(res.body.details).toContainEqual(expect.objectContaining({ subject: 'authorization', authorization_id: g.authorizationId, status: 'revoked' }));
    expect((await userinfo(g.accessToken)).status).toBe(401);
  });

  it('still revokes for the user’s own session', async () => {
    const g = await publicGrant();
    const res = await request(app()).post('/oauth/revoke').set('Authorization', `Bearer ${g.session}`).send({ authorization_id: g.authorizationId });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ revoked: true, details: [{ subject: 'authorization', authorization_id: g.authorizationId, status: 'revoked' }] });
    expect((await userinfo(g.accessToken)).status).toBe(401);
  });
});
