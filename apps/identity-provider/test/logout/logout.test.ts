import { describe, expect, it } from '@jest/globals';
import { createClient } from '@svc/admin';
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose';
import request from 'supertest';
import { csrfField, fromOwnPage } from '../hosted-forms.js';
import { arrange, buildIdp, exchangeWith, obtainCode, REDIRECT, signIn, useIdp } from '../helpers.js';
import { useBackchannelReceiver } from './backchannel-receiver.js';

// OpenID Connect RP-Initiated Logout 1.0 and Back-Channel Logout 1.0, through HTTP. The provider
// may reach this machine (JWKS_URI_ALLOW_PRIVATE), where the test's own receiver listens.
const suite = useIdp({ JWKS_URI_ALLOW_PRIVATE: 'true' });
const app = () => suite.idp.app;
const issuer = () => suite.idp.deps.config.issuer;
const AFTER = 'https://app.example/signed-out';
const COOKIE = '__Host-svc_session';

/** A back-channel logout receiver: what each client was told. */
const receiver = useBackchannelReceiver();

/** A client registered for logout, its user signed in, and its tokens from that session. */
async function signedIn(options: { backchannel?: string } = {}) {
  const a = await arrange(suite.db);
  const client = await createClient(a.ctx, {
    org: a.org.id,
    name: 'Logout App',
    redirectUris: [REDIRECT],
    scopes: 'openid identity:read',
    postLogoutRedirectUris: [AFTER],
    ...(options.backchannel ? { backchannelLogoutUri: options.backchannel } : {}),
  });
  const session = await signIn(app(), a.user.email, a.user.password);
  const { code, verifier } = await obtainCode(app(), client.client_id, session, { scope: 'openid identity:read' });
  const tokens = (await exchangeWith(app(), client, { code, code_verifier: verifier })).body;
  return { a, client, session, tokens };
}

const sessionAlive = async (session: string) =>
  (await request(app()).get('/v2/developer/organization').set('Authorization', `Bearer ${session}`)).status !== 401;
const logout = (query: Record<string, string>, session?: string) => {
  const req = request(app()).get('/oauth/logout').set('Accept', 'text/html').query(query);
  return session ? req.set('Cookie', `${COOKIE}=${session}`) : req;
};

describe('sid in id_tokens', () => {
  it('names the session, differently for each client, and a refreshed id_token keeps it', async () => {
    const { a, client, session, tokens } = await signedIn();
    const sid = decodeJwt(tokens.id_token).sid;
    expect(sid).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const other = await obtainCode(app(), a.confidential.client_id, session);
    const otherTokens = (await exchangeWith(app(), a.confidential, { code: other.code, code_verifier: other.verifier })).body;
    expect(decodeJwt(otherTokens.id_token).sid).not.toBe(sid);
    const refreshed = await request(app())
      .post('/oauth/token')
      .auth(client.client_id, client.client_secret!)
      .send({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(decodeJwt(refreshed.body.id_token).sid).toBe(sid);
  });
});

describe('RP-initiated logout', () => {
  it('with an id_token_hint of this person ends the session at once and returns to the registered URI with state', async () => {
    const { client, session, tokens } = await signedIn();
    const res = await logout({ id_token_hint: tokens.id_token, post_logout_redirect_uri: AFTER, state: 'bye-1' }, session);
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${AFTER}?state=bye-1`);
    expect((res.headers['set-cookie'] as unknown as string[]).join()).toMatch(new RegExp(`${COOKIE}=;`));
    expect(await sessionAlive(session)).toBe(false);
    // A later authorization asks the person to sign in again.
    const again = await request(app())
      .get('/oauth/authorize')
      .set('Cookie', `${COOKIE}=${session}`)
      .set('Accept', 'application/json')
      .query({
        client_id: client.client_id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      });
    const page = await request(app()).get('/consent').set('Cookie', `${COOKIE}=${session}`).query({ authorization_id: again.body.authorization_id });
    expect(page.text).toContain('action="/consent/sign-in"');
  });

  it('without proof asks the person on its own page, and ends the session only when they confirm from it', async () => {
    const { client, session } = await signedIn();
    const asked = await logout({ client_id: client.client_id, post_logout_redirect_uri: AFTER, state: 'bye-2' }, session);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('action="/oauth/logout"');
    expect(await sessionAlive(session)).toBe(true);
    const form = { client_id: client.client_id, post_logout_redirect_uri: AFTER, state: 'bye-2', csrf_token: csrfField(asked.text) };
    const forged = await request(app())
      .post('/oauth/logout')
      .type('form')
      .set('Cookie', `${COOKIE}=${session}`)
      .send({ ...form, csrf_token: 'wrong' })
      .set(fromOwnPage(issuer()));
    expect(forged.status).toBe(403);
    const elsewhere = await request(app())
      .post('/oauth/logout')
      .type('form')
      .set('Cookie', `${COOKIE}=${session}`)
      .set('Origin', 'https://evil.example')
      .send(form);
    expect(elsewhere.status).toBe(403);
    expect(await sessionAlive(session)).toBe(true);
    const confirmed = await request(app()).post('/oauth/logout').type('form').set('Cookie', `${COOKIE}=${session}`).set(fromOwnPage(issuer())).send(form);
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe(`${AFTER}?state=bye-2`);
    expect(await sessionAlive(session)).toBe(false);
  });

  it('an id_token_hint of an earlier session of the same person is no proof: the person is asked', async () => {
    const { a, client, session, tokens } = await signedIn();
    expect((await request(app()).delete('/auth/session').set('Authorization', `Bearer ${session}`)).status).toBe(204);
    const again = await signIn(app(), a.user.email, a.user.password);
    const res = await logout({ id_token_hint: tokens.id_token, post_logout_redirect_uri: AFTER }, again);
    expect(res.status).toBe(200);
    expect(res.text).toContain('csrf_token');
    expect(await sessionAlive(again)).toBe(true);
    expect(client.client_id).toBe(decodeJwt(tokens.id_token).aud);
  });

  it('a native app’s return address is allowed as its scheme in the page’s form-action', async () => {
    const a = await arrange(suite.db);
    const client = await createClient(a.ctx, {
      org: a.org.id,
      name: 'Native App',
      redirectUris: [REDIRECT],
      scopes: 'openid',
      postLogoutRedirectUris: ['com.example.app:/signed-out'],
    });
    const session = await signIn(app(), a.user.email, a.user.password);
    const res = await logout({ client_id: client.client_id, post_logout_redirect_uri: 'com.example.app:/signed-out' }, session);
    expect(res.status).toBe(200);
    expect(res.headers['content-security-policy']).toContain("form-action 'self' com.example.app:;");
  });

  it('an id_token_hint of someone else is no proof: the person is asked', async () => {
    const { tokens } = await signedIn();
    const other = await signedIn();
    const res = await logout({ id_token_hint: tokens.id_token }, other.session);
    expect(res.status).toBe(200);
    expect(res.text).toContain('csrf_token');
    expect(await sessionAlive(other.session)).toBe(true);
  });

  it.each([
    [
      'a post_logout_redirect_uri not registered',
      (t: { client: { client_id: string } }) => ({ client_id: t.client.client_id, post_logout_redirect_uri: 'https://evil.example/' }),
    ],
    ['a post_logout_redirect_uri without a client', () => ({ post_logout_redirect_uri: AFTER })],
    [
      'an access token as id_token_hint',
      (t: { tokens: { access_token: string } }) => ({ id_token_hint: t.tokens.access_token, post_logout_redirect_uri: AFTER }),
    ],
    [
      'a client_id that is not the hint’s audience',
      (t: { tokens: { id_token: string }; a: { confidential: { client_id: string } } }) => ({
        id_token_hint: t.tokens.id_token,
        client_id: t.a.confidential.client_id,
      }),
    ],
  ])('refuses %s on a page, never redirecting, and ends nothing', async (_what, query) => {
    const t = await signedIn();
    const res = await logout(query(t as never) as Record<string, string>, t.session);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(await sessionAlive(t.session)).toBe(true);
  });

  it('with nobody signed in still returns to the registered URI, and otherwise says so', async () => {
    const { tokens } = await signedIn();
    expect((await logout({ id_token_hint: tokens.id_token, post_logout_redirect_uri: AFTER })).headers.location).toBe(AFTER);
    const page = await logout({});
    expect(page.status).toBe(200);
    expect(page.text).toContain('<p>You are signed out. You can close this page.</p>');
  });

  it('says whose account above the heading of every page it shows, with the name the operator gave, in the person’s language', async () => {
    const host = new URL(issuer()).host;
    expect((await logout({})).text).toContain(`<p class="provider">Your account · <span>${host}</span></p>\n<h1>Signed out</h1>`);
    expect((await logout({ id_token_hint: 'not-a-token' })).text).toContain(`<p class="provider">Your account · <span>${host}</span></p>\n<h1>`);
    const named = buildIdp({ IDP_DISPLAY_NAME: 'Acme ID' });
    try {
      const german = await request(named.app).get('/oauth/logout').set('Accept', 'text/html').set('Accept-Language', 'de');
      expect(german.text).toContain(`<p class="provider">Konto bei Acme ID · <span>${host}</span></p>`);
      expect(german.text).toContain('Sie sind von Acme ID abgemeldet.');
      const english = await request(named.app).get('/oauth/logout').set('Accept', 'text/html').query({ id_token_hint: 'not-a-token' });
      expect(english.text).toContain(`<p class="provider">Acme ID account · <span>${host}</span></p>`);
    } finally {
      await named.deps.close();
    }
  });
});

describe('back-channel logout', () => {
  it('tells each client authorized in the ended session with a verifiable logout token, and nobody else', async () => {
    const told = await signedIn({ backchannel: `${receiver.url()}/told` });
    const bystander = await signedIn({ backchannel: `${receiver.url()}/bystander` });
    const res = await logout({ id_token_hint: told.tokens.id_token, post_logout_redirect_uri: AFTER }, told.session);
    expect(res.status).toBe(303);
    await suite.idp.deps.logout.settled();
    const delivered = receiver.deliveredTo('/told');
    expect(delivered).toHaveLength(1);
    expect(receiver.deliveredTo('/bystander')).toEqual([]);
    const token = new URLSearchParams(delivered[0]!.body).get('logout_token')!;
    const jwks = createLocalJWKSet((await request(app()).get('/.well-known/jwks.json')).body);
    const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: issuer(), audience: told.client.client_id, typ: 'logout+jwt' });
    const idToken = decodeJwt(told.tokens.id_token);
    expect(protectedHeader.typ).toBe('logout+jwt');
    expect(payload).toMatchObject({ sub: idToken.sub, sid: idToken.sid, events: { 'http://schemas.openid.net/event/backchannel-logout': {} } });
    expect(payload.nonce).toBeUndefined();
    expect(typeof payload.jti).toBe('string');
    expect(await sessionAlive(bystander.session)).toBe(true);
  });

  it('also when the person signs out on this service directly', async () => {
    const t = await signedIn({ backchannel: `${receiver.url()}/direct` });
    expect((await request(app()).delete('/auth/session').set('Authorization', `Bearer ${t.session}`)).status).toBe(204);
    await suite.idp.deps.logout.settled();
    expect(receiver.deliveredTo('/direct')).toHaveLength(1);
  });

  it('never reaches an internal address unless the deployment allows it', async () => {
    const guarded = buildIdp();
    try {
      const t = await signedIn({ backchannel: `${receiver.url()}/guarded` });
      expect((await request(guarded.app).delete('/auth/session').set('Authorization', `Bearer ${t.session}`)).status).toBe(204);
      await guarded.deps.logout.settled();
      expect(receiver.deliveredTo('/guarded')).toHaveLength(0);
    } finally {
      await guarded.deps.close();
    }
  });
});
