import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import request from 'supertest';
import { arrange, basic, buildIdp, exchangeWith, issueTokens, obtainCode, signIn, useIdp } from '../helpers.js';

// A refresh whose answer was lost may be retried (DESIGN.md, FAPI 2.0: a window of at most 10 s,
// the same client, the same DPoP key); anything else stays reuse, which revokes the grant.
const suite = useIdp();
const REUSED = 'The refresh token was already used; every token of this grant is revoked';

async function dpopKey() {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return () =>
    new SignJWT({ htm: 'POST', htu: `${suite.idp.deps.config.issuer}/oauth/token`, jti: randomUUID(), nonce: suite.idp.deps.dpop.nonce() })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
      .setIssuedAt()
      .sign(privateKey);
}

type Arranged = Awaited<ReturnType<typeof arrange>>;

function refreshAs(a: Arranged, body: Record<string, string>, proof?: string, app = suite.idp.app) {
  const req = request(app).post('/oauth/token').set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!));
  if (proof) req.set('DPoP', proof);
  return req.send({ grant_type: 'refresh_token', ...body });
}

describe('a refresh retried within the window', () => {
  it('answers the same pair, which works; the grant is not revoked', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    const first = await refreshAs(a, { refresh_token: token.refresh_token });
    expect(first.status).toBe(200);
    const retried = await refreshAs(a, { refresh_token: token.refresh_token });
    expect(retried.status).toBe(200);
    expect(retried.body).toEqual(first.body);
    const info = await request(suite.idp.app).get('/v2/userinfo').set('Authorization', `Bearer ${retried.body.access_token}`);
    expect(info.status).toBe(200);
    expect((await refreshAs(a, { refresh_token: retried.body.refresh_token })).status).toBe(200);
  });

  it('with the same DPoP key answers the same bound pair; with another key it is reuse', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    const [mine, theirs] = [await dpopKey(), await dpopKey()];
    const first = await refreshAs(a, { refresh_token: token.refresh_token }, await mine());
    expect(first.body.token_type).toBe('DPoP');
    const retried = await refreshAs(a, { refresh_token: token.refresh_token }, await mine());
    expect(retried.body.access_token).toBe(first.body.access_token);
    const other = await refreshAs(a, { refresh_token: token.refresh_token }, await theirs());
    expect(other.body.error_description).toBe(REUSED);
    // Bearer (no key at all) is another key too; and the grant is gone.
    expect((await refreshAs(a, { refresh_token: first.body.refresh_token }, await mine())).body.error).toBe('invalid_grant');
  });

  it('with another scope is reuse', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    expect((await refreshAs(a, { refresh_token: token.refresh_token, scope: 'openid' })).status).toBe(200);
    const wider = await refreshAs(a, { refresh_token: token.refresh_token });
    expect(wider.body.error_description).toBe(REUSED);
  });

  it('after the successor was used is reuse: the old token is a stolen copy', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    const first = await refreshAs(a, { refresh_token: token.refresh_token });
    expect((await refreshAs(a, { refresh_token: first.body.refresh_token })).status).toBe(200);
    expect((await refreshAs(a, { refresh_token: token.refresh_token })).body.error_description).toBe(REUSED);
  });

  it('after the grant was revoked answers nothing', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    const first = await refreshAs(a, { refresh_token: token.refresh_token });
    const revoked = await request(suite.idp.app)
      .post('/oauth/revoke')
      .set('Authorization', basic(a.confidential.client_id, a.confidential.client_secret!))
      .send({ token: first.body.refresh_token });
    expect(revoked.status).toBe(200);
    expect((await refreshAs(a, { refresh_token: token.refresh_token })).body.error).toBe('invalid_grant');
  });

  it('by a public client with its DPoP key answers the same pair, and never to a bearer retry', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.publicClient.client_id, session);
    const key = await dpopKey();
    const issued = await exchangeWith(suite.idp.app, a.publicClient, { code, code_verifier: verifier }).set('DPoP', await key());
    expect(issued.status).toBe(200);
    const refresh = async (proof?: string) => {
      const req = request(suite.idp.app).post('/oauth/token').type('form');
      if (proof) req.set('DPoP', proof);
      return req.send({ grant_type: 'refresh_token', client_id: a.publicClient.client_id, refresh_token: issued.body.refresh_token });
    };
    const first = await refresh(await key());
    expect(first.status).toBe(200);
    expect((await refresh(await key())).body).toEqual(first.body);
    expect((await refresh()).body.error).toBe('invalid_grant');
  });

  it('by a public client without DPoP is reuse: a copy of its token cannot fetch the new pair (attack: a thief within 10 s)', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.publicClient.client_id, session);
    const issued = await exchangeWith(suite.idp.app, a.publicClient, { code, code_verifier: verifier });
    expect(issued.status).toBe(200);
    const refresh = () =>
      request(suite.idp.app)
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'refresh_token', client_id: a.publicClient.client_id, refresh_token: issued.body.refresh_token });
    const client = await refresh();
    expect(client.status).toBe(200);
    const thief = await refresh();
    expect(thief.body).toMatchObject({ error: 'invalid_grant', error_description: REUSED });
    // Detected: the whole grant is gone, the client's new pair with it.
    const next = await request(suite.idp.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', client_id: a.publicClient.client_id, refresh_token: client.body.refresh_token });
    expect(next.body.error).toBe('invalid_grant');
  });

  it('by a public client in parallel answers every request the one rotation’s pair', async () => {
    const a = await arrange(suite.db);
    const session = await signIn(suite.idp.app, a.user.email, a.user.password);
    const { code, verifier } = await obtainCode(suite.idp.app, a.publicClient.client_id, session);
    const key = await dpopKey();
    const issued = await exchangeWith(suite.idp.app, a.publicClient, { code, code_verifier: verifier }).set('DPoP', await key());
    const proofs = await Promise.all([key(), key(), key(), key()]);
    const answers = await Promise.all(
      proofs.map((proof) =>
        request(suite.idp.app)
          .post('/oauth/token')
          .type('form')
          .set('DPoP', proof)
          .send({ grant_type: 'refresh_token', client_id: a.publicClient.client_id, refresh_token: issued.body.refresh_token }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((r) => r.body.refresh_token)).size).toBe(1);
  });

  it('still answers the rotation when the store cannot keep it; a retry is then reuse, as without the window', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    // The same database, and a Redis that is not there.
    const down = buildIdp({ REDIS_URL: 'redis://127.0.0.1:1' });
    try {
      const first = await refreshAs(a, { refresh_token: token.refresh_token }, undefined, down.app);
      expect(first.status).toBe(200);
      expect((await refreshAs(a, { refresh_token: token.refresh_token }, undefined, down.app)).body.error_description).toBe(REUSED);
    } finally {
      await down.deps.close();
    }
  });

  it('refuses a scope that is not scope tokens with 400, never 500', async () => {
    const a = await arrange(suite.db);
    const token = await issueTokens(suite.idp.app, a);
    const res = await refreshAs(a, { refresh_token: token.refresh_token, scope: 'openid\u0000' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
    expect((await refreshAs(a, { refresh_token: token.refresh_token })).status).toBe(200);
  });
});
