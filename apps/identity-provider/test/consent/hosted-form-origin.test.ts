// The hosted forms (sign-in, approve, deny, sign-out) must come from this service's own pages:
// a cross-site post is refused whatever cookies it carries, and on https the cookies have the
// __Host- prefix, so no other host (a sibling subdomain, a plain-http page) can plant them.
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { arrange, buildIdp, useIdp } from '../helpers.js';
import { cookiesFrom, csrfField, fromOwnPage, signInPage, startAuthorization } from '../hosted-forms.js';

const suite = useIdp();
const app = () => suite.idp.app;
const issuer = () => suite.idp.deps.config.issuer;
const CROSS_SITE = { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' };

/** A browser signed in through the hosted form: its cookies, and the consent page's form token. */
async function signedInBrowser() {
  const a = await arrange(suite.db);
  const id = await startAuthorization(app(), a.confidential.client_id);
  const page = await signInPage(app(), id);
  const signedIn = await request(app())
    .post('/consent/sign-in')
    .set('Cookie', page.cookie)
    .set(fromOwnPage(issuer()))
    .type('form')
    .send({ authorization_id: id, csrf_token: page.csrf, email: a.user.email, password: a.user.password });
  expect(signedIn.status).toBe(303);
  const cookie = cookiesFrom(signedIn);
  const consent = await request(app()).get('/consent').set('Cookie', cookie).query({ authorization_id: id });
  expect(consent.status).toBe(200);
  return { a, id, cookie, csrf: csrfField(consent.text) };
}

describe('POST /consent/sign-in', () => {
  it.each([
    ['a cross-site post', CROSS_SITE],
    ['a post without Origin', {}],
    ['a post whose Fetch Metadata says cross-site', { Origin: 'https://id.example.com', 'Sec-Fetch-Site': 'cross-site' }],
  ])('refuses %s carrying a planted double-submit cookie, and signs nobody in', async (_what, headers) => {
    const a = await arrange(suite.db);
    const id = await startAuthorization(app(), a.confidential.client_id);
    // The attacker plants the cookie (under either name) and sends the same value in the form.
    const res = await request(app())
      .post('/consent/sign-in')
      .set('Cookie', 'svc_login_csrf=planted-by-attacker; __Host-svc_login_csrf=planted-by-attacker')
      .set(headers)
      .type('form')
      .send({ authorization_id: id, csrf_token: 'planted-by-attacker', email: a.other.email, password: a.other.password });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(cookiesFrom(res)).not.toMatch(/svc_session/);
  });

  it('refuses a cookie without the __Host- prefix on https, even from its own page', async () => {
    const a = await arrange(suite.db);
    const id = await startAuthorization(app(), a.confidential.client_id);
    const res = await request(app())
      .post('/consent/sign-in')
      .set('Cookie', 'svc_login_csrf=planted-by-sibling')
      .set(fromOwnPage(issuer()))
      .type('form')
      .send({ authorization_id: id, csrf_token: 'planted-by-sibling', email: a.other.email, password: a.other.password });
    expect(res.status).toBe(403);
    expect(cookiesFrom(res)).not.toMatch(/svc_session=/);
  });

  it('sets __Host- cookies (Secure, Path=/, no Domain) on https, and signs in from its own page', async () => {
    const a = await arrange(suite.db);
    const id = await startAuthorization(app(), a.confidential.client_id);
    const page = await signInPage(app(), id);
    // Under no-referrer a browser would send `Origin: null` with the page's own form posts.
    expect(page.referrerPolicy).toBe('same-origin');
    const csrfCookie = page.setCookie.find((c) => c.startsWith('__Host-svc_login_csrf='));
    expect(csrfCookie).toBeDefined();
    expect(csrfCookie).toMatch(/; Path=\/(;|$)/);
    expect(csrfCookie).toMatch(/; Secure/);
    expect(csrfCookie).not.toMatch(/Domain=/i);
    const signedIn = await request(app())
      .post('/consent/sign-in')
      .set('Cookie', page.cookie)
      .set(fromOwnPage(issuer()))
      .type('form')
      .send({ authorization_id: id, csrf_token: page.csrf, email: a.user.email, password: a.user.password });
    expect(signedIn.status).toBe(303);
    const session = (signedIn.headers['set-cookie'] as unknown as string[]).find((c) => c.startsWith('__Host-svc_session='));
    expect(session).toMatch(/; Path=\/(;|$)/);
    expect(session).toMatch(/; Secure/);
    expect(session).not.toMatch(/Domain=/i);
  });

  it('keeps plain cookie names where the service is served over http (no Secure possible)', async () => {
    const plain = buildIdp({ PUBLIC_URL: 'http://localhost:4000' });
    try {
      const a = await arrange(suite.db);
      const page = await signInPage(plain.app, await startAuthorization(plain.app, a.confidential.client_id));
      expect(page.cookie).toMatch(/^svc_login_csrf=/);
    } finally {
      await plain.deps.close();
    }
  });
});

describe('hosted decision and sign-out forms', () => {
  it.each(['/oauth/authorize/approve', '/oauth/authorize/deny'])(
    'refuses a cross-site form post to %s, even with the session cookie and its CSRF token',
    async (path) => {
      const browser = await signedInBrowser();
      const res = await request(app())
        .post(path)
        .set('Cookie', browser.cookie)
        .set(CROSS_SITE)
        .type('form')
        .send({ authorization_id: browser.id, csrf_token: browser.csrf });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('csrf_failed');
      expect((await suite.db.authorization.findUniqueOrThrow({ where: { id: browser.id } })).status).toBe('pending_admin');
    },
  );

  it.each(['/oauth/authorize/approve', '/oauth/authorize/deny'])('accepts the form post to %s from its own page', async (path) => {
    const browser = await signedInBrowser();
    const res = await request(app())
      .post(path)
      .set('Cookie', browser.cookie)
      .set(fromOwnPage(issuer()))
      .type('form')
      .send({ authorization_id: browser.id, csrf_token: browser.csrf });
    expect(res.status).toBe(303);
  });

  it('"Not you? Sign out" lets another account answer the same request', async () => {
    const browser = await signedInBrowser();
    const out = await request(app())
      .post('/consent/sign-out')
      .set('Cookie', browser.cookie)
      .set(fromOwnPage(issuer()))
      .type('form')
      .send({ authorization_id: browser.id, csrf_token: browser.csrf });
    expect(out.status).toBe(303);
    // The same request, signed in as the other account, is that account's to answer.
    const page = await signInPage(app(), browser.id);
    const other = await request(app())
      .post('/consent/sign-in')
      .set('Cookie', page.cookie)
      .set(fromOwnPage(issuer()))
      .type('form')
      .send({ authorization_id: browser.id, csrf_token: page.csrf, email: browser.a.other.email, password: browser.a.other.password });
    expect(other.status).toBe(303);
    const consent = await request(app()).get('/consent').set('Cookie', cookiesFrom(other)).query({ authorization_id: browser.id });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain(browser.a.other.email);
    expect(consent.text).not.toContain(browser.a.user.email);
  });

  it('refuses a sign-out from its own page without the session’s CSRF token, and one for a request that is gone', async () => {
    const browser = await signedInBrowser();
    const signOut = (body: Record<string, string>) =>
      request(app()).post('/consent/sign-out').set('Cookie', browser.cookie).set(fromOwnPage(issuer())).type('form').send(body);
    expect((await signOut({ authorization_id: browser.id, csrf_token: 'forged' })).status).toBe(403);
    const gone = await signOut({ authorization_id: '00000000-0000-4000-8000-000000000000', csrf_token: browser.csrf });
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toMatch(/^text\/html/);
    expect((await request(app()).get('/consent').set('Cookie', browser.cookie).query({ authorization_id: browser.id })).text).toContain(browser.a.user.email);
  });

  it('refuses a cross-site sign-out and keeps the session', async () => {
    const browser = await signedInBrowser();
    const res = await request(app())
      .post('/consent/sign-out')
      .set('Cookie', browser.cookie)
      .set(CROSS_SITE)
      .type('form')
      .send({ authorization_id: browser.id, csrf_token: browser.csrf });
    expect(res.status).toBe(403);
    expect((await request(app()).get('/consent').set('Cookie', browser.cookie).query({ authorization_id: browser.id })).text).toContain(browser.a.user.email);
  });
});
