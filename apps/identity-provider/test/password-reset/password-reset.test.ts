// A forgotten password is reset by a single-use link mailed (to a real SMTP server in this process)
// to the account's address. Attacks: learning which addresses have accounts, flooding someone's
// mailbox, replaying or guessing a link, two confirmations racing, a link outliving its time.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { sha256Hex } from '@svc/secrets';
import { testDb, uniqueEmail, uniqueNamespace } from '@svc/testkit';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { cookiesFrom, csrfField, fromOwnPage, startAuthorization } from '../hosted-forms.js';
import { buildIdp, exchangeWith, obtainCode, PRODUCTION_URL, REDIRECT, signIn } from '../helpers.js';
import { useBackchannelReceiver } from '../logout/backchannel-receiver.js';
import { startSmtpInbox } from '../mail/smtp-inbox.js';

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let idp: ReturnType<typeof buildIdp>;
let db: Db;
// A clock the tests move: links expire.
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const receiver = useBackchannelReceiver();

beforeAll(async () => {
  inbox = await startSmtpInbox();
  db = testDb();
  idp = buildIdp({ MAIL_OUTBOX: '', SMTP_URL: inbox.url, JWKS_URI_ALLOW_PRIVATE: 'true' }, clock);
});
afterAll(async () => {
  await idp.deps.close();
  await inbox.close();
  await db.$disconnect();
});

const OLD = 'the old password, forgotten';
const NEW = 'a brand new password';
const ACCEPTED = { status: 'requested', expires_in: 1800 };

async function account() {
  const email = uniqueEmail('forgetful');
  const user = await createUser({ db, now: () => new Date() }, { email, password: OLD });
  return { email, id: user.id };
}
const ask = (email: string, lang?: string) => {
  const req = request(idp.app).post('/auth/password-reset');
  return (lang ? req.set('Accept-Language', lang) : req).send({ email });
};
const confirm = (body: Record<string, unknown>) => request(idp.app).post('/auth/password-reset/confirm').send(body);
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
/** The link of the next mail to `email`, once the work after the answer is done. */
async function linkFor(email: string) {
  await idp.deps.mailLater.settled();
  const mail = await inbox.next(email);
  return { mail, link: mail.links.find((l) => l.startsWith(`${PRODUCTION_URL}/password-reset?token=`))! };
}
const signsIn = async (email: string, password: string) => (await request(idp.app).post('/auth/session').send({ email, password })).status;
const sessionAlive = async (session: string) =>
  (await request(idp.app).get('/v2/developer/organization').set('Authorization', `Bearer ${session}`)).status !== 401;

describe('POST /auth/password-reset, then POST /auth/password-reset/confirm', () => {
  it('mails a single-use link whose token is kept only as a hash; the new password works, the old one no longer', async () => {
    const { email, id } = await account();
    const res = await ask(email);
    expect([res.status, res.body]).toEqual([202, ACCEPTED]);
    const { mail, link } = await linkFor(email);
    expect(mail.subject).toBe('Reset your password');
    expect(mail.text).toContain('within 30 minutes');
    expect(link).toMatch(/\/password-reset\?token=svcpwr_[0-9A-Za-z]{43}&lang=en$/);
    const token = tokenOf(link);
    const stored = await db.passwordReset.findUniqueOrThrow({ where: { userId: id } });
    expect(stored.tokenHash).toBe(sha256Hex(token));
    expect(JSON.stringify(stored)).not.toContain(token);

    // Opening the link (as a mail scanner would) shows the form and changes nothing.
    const page = await request(idp.app)
      .get(new URL(link).pathname + new URL(link).search)
      .set('Accept', 'text/html');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Choose a new password');
    expect(page.text).toContain('Your passkeys are kept');
    expect([page.headers['cache-control'], page.headers['referrer-policy']]).toEqual(['no-store', 'same-origin']);
    expect(await signsIn(email, OLD)).toBe(200);

    const done = await confirm({ token, password: NEW });
    expect([done.status, done.body]).toEqual([200, { status: 'password_changed', sessions_ended: 1 }]);
    expect(await signsIn(email, NEW)).toBe(200);
    expect(await signsIn(email, OLD)).toBe(401);
    await idp.deps.mailLater.settled();
    const changed = await inbox.next(email);
    expect(changed.subject).toBe('Your password was changed');
    // The page to review the passkeys a reset keeps, and the way to reset again.
    expect(changed.links).toEqual([`${PRODUCTION_URL}/account`, `${PRODUCTION_URL}/password-reset/new?lang=en`]);

    const again = await confirm({ token, password: 'yet another password' });
    expect([again.status, again.body.error]).toEqual([400, 'invalid_reset_token']);
    expect(await signsIn(email, NEW)).toBe(200);
  });

  it('answers an unknown address exactly as a known one, and mails nothing', async () => {
    const { email: known } = await account();
    const unknown = uniqueEmail('nobody');
    const [toKnown, toUnknown] = [await ask(known), await ask(unknown)];
    expect([toUnknown.status, toUnknown.body]).toEqual([toKnown.status, toKnown.body]);
    expect(toUnknown.headers['content-length']).toBe(toKnown.headers['content-length']);
    await idp.deps.mailLater.settled();
    await inbox.next(known);
    expect(inbox.received.filter((m) => m.to.includes(unknown))).toEqual([]);
  });

  it('writes the mail in the language the request asks for', async () => {
    const { email } = await account();
    await ask(email, 'de-CH,de;q=0.9');
    const { mail, link } = await linkFor(email);
    expect(mail.subject).toBe('Passwort zurücksetzen');
    expect(link).toMatch(/&lang=de$/);
  });

  it('replaces the previous link with a new one, and refuses a tampered token', async () => {
    const { email } = await account();
    await ask(email);
    const first = tokenOf((await linkFor(email)).link);
    await ask(email);
    const second = tokenOf((await linkFor(email)).link);
    expect(second).not.toBe(first);
    const replaced = await confirm({ token: first, password: NEW });
    expect([replaced.status, replaced.body.error]).toEqual([400, 'invalid_reset_token']);
    const tampered = await confirm({ token: `${second.slice(0, -1)}${second.endsWith('A') ? 'B' : 'A'}`, password: NEW });
    expect([tampered.status, tampered.body.error]).toEqual([400, 'invalid_reset_token']);
    expect(await signsIn(email, OLD)).toBe(200);
    expect((await confirm({ token: second, password: NEW })).status).toBe(200);
  });

  it('lets a link work for 30 minutes only', async () => {
    const { email } = await account();
    await ask(email);
    const token = tokenOf((await linkFor(email)).link);
    offset = 31 * 60_000;
    try {
      const expired = await confirm({ token, password: NEW });
      expect([expired.status, expired.body.error]).toEqual([400, 'invalid_reset_token']);
      const page = await request(idp.app).get('/password-reset').query({ token }).set('Accept', 'text/html');
      expect([page.status, page.text.includes('This reset link is unknown, used or expired')]).toEqual([400, true]);
    } finally {
      offset = 0;
    }
    expect(await signsIn(email, OLD)).toBe(200);
  });

  it('of two confirmations of one link at the same moment, exactly one succeeds', async () => {
    const { email } = await account();
    await ask(email);
    const token = tokenOf((await linkFor(email)).link);
    const answers = await Promise.all([confirm({ token, password: 'first racer password' }), confirm({ token, password: 'second racer password' })]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
    const winner = answers[0]!.status === 200 ? 'first racer password' : 'second racer password';
    expect(await signsIn(email, winner)).toBe(200);
  });

  it('refuses a weak password naming the field, and spends nothing', async () => {
    const { email } = await account();
    await ask(email);
    const token = tokenOf((await linkFor(email)).link);
    const weak = await confirm({ token, password: 'short' });
    expect(weak.status).toBe(400);
    expect(weak.body.details).toEqual([{ field: 'body.password', message: 'must be at least 8 characters' }]);
    expect((await confirm({ token, password: NEW })).status).toBe(200);
  });

  it('refuses a malformed request naming the field, never a 500', async () => {
    const bad = await request(idp.app).post('/auth/password-reset').send({ email: 'not an address' });
    expect([bad.status, bad.body.details?.[0]?.field]).toEqual([400, 'body.email']);
    const missing = await confirm({ password: NEW });
    expect([missing.status, missing.body.details?.[0]?.field]).toEqual([400, 'body.token']);
  });
});

describe('sessions after a reset', () => {
  /** An account signed in twice, one session with a client that listens for back-channel logout. */
  async function signedInTwice(path: string) {
    const { email, id } = await account();
    const ctx = { db, now: () => new Date() };
    const org = await createOrg(ctx, { name: 'Reset Org', ownerEmail: email });
    const client = await createClient(ctx, {
      org: org.id,
      name: 'Listening App',
      redirectUris: [REDIRECT],
      scopes: 'openid identity:read',
      backchannelLogoutUri: `${receiver.url()}${path}`,
    });
    const [phone, laptop] = [await signIn(idp.app, email, OLD), await signIn(idp.app, email, OLD)];
    const { code, verifier } = await obtainCode(idp.app, client.client_id, phone, { scope: 'openid identity:read' });
    expect((await exchangeWith(idp.app, client, { code, code_verifier: verifier })).status).toBe(200);
    return { email, id, phone, laptop };
  }

  it('ends every session but the one presenting the request when asked, telling their clients by back-channel logout', async () => {
    const { email, phone, laptop } = await signedInTwice('/everywhere');
    await ask(email);
    const token = tokenOf((await linkFor(email)).link);
    const done = await request(idp.app).post('/auth/password-reset/confirm').set('Authorization', `Bearer ${laptop}`).send({ token, password: NEW });
    expect([done.status, done.body.sessions_ended]).toEqual([200, 1]);
    expect([await sessionAlive(phone), await sessionAlive(laptop)]).toEqual([false, true]);
    await idp.deps.logout.settled();
    expect(receiver.deliveredTo('/everywhere')).toHaveLength(1);
  });

  it('keeps every session when not asked to end them', async () => {
    const { email, phone, laptop } = await signedInTwice('/kept');
    await ask(email);
    const token = tokenOf((await linkFor(email)).link);
    const done = await confirm({ token, password: NEW, sign_out_everywhere: false });
    expect([done.status, done.body.sessions_ended]).toEqual([200, 0]);
    expect([await sessionAlive(phone), await sessionAlive(laptop)]).toEqual([true, true]);
    await idp.deps.logout.settled();
    expect(receiver.deliveredTo('/kept')).toEqual([]);
  });
});

describe('the hosted pages', () => {
  it('asks for the address and sets the new password through their forms, each with its login-CSRF cookie', async () => {
    const { email } = await account();
    const form = await request(idp.app).get('/password-reset/new').query({ lang: 'fr' }).set('Accept', 'text/html');
    expect(form.text).toContain('Réinitialiser votre mot de passe');
    const asked = await request(idp.app)
      .post('/password-reset/new')
      .set(fromOwnPage(PRODUCTION_URL))
      .set('Cookie', cookiesFrom(form))
      .type('form')
      .send({ email, csrf_token: csrfField(form.text), lang: 'fr' });
    expect([asked.status, asked.text.includes('Consultez vos e-mails')]).toEqual([200, true]);
    const { mail, link } = await linkFor(email);
    expect(mail.subject).toBe('Réinitialiser votre mot de passe');

    const page = await request(idp.app)
      .get(new URL(link).pathname + new URL(link).search)
      .set('Accept', 'text/html');
    const post = (fields: Record<string, string>, cookie = cookiesFrom(page)) =>
      request(idp.app)
        .post('/password-reset')
        .set(fromOwnPage(PRODUCTION_URL))
        .set('Cookie', cookie)
        .type('form')
        .send({ token: tokenOf(link), csrf_token: csrfField(page.text), lang: 'fr', ...fields });
    const forged = await post({ password: NEW, password_again: NEW }, 'svc_login_csrf=planted');
    expect(forged.status).toBe(403);
    const differ = await post({ password: NEW, password_again: `${NEW}!` });
    expect([differ.status, differ.text.includes('Les deux mots de passe ne sont pas identiques.')]).toEqual([400, true]);
    const short = await post({ password: 'short', password_again: 'short' });
    expect([short.status, short.text.includes('Nouveau mot de passe : au moins 8 caractères.')]).toEqual([400, true]);
    expect(await signsIn(email, OLD)).toBe(200);
    const done = await post({ password: NEW, password_again: NEW, sign_out_everywhere: 'on' });
    expect([done.status, done.text.includes('Votre mot de passe est modifié, et vous êtes déconnecté partout ailleurs.')]).toEqual([200, true]);
    expect(await signsIn(email, NEW)).toBe(200);
    const spent = await post({ password: NEW, password_again: NEW });
    expect([spent.status, spent.text.includes('Ce lien de réinitialisation est inconnu')]).toEqual([400, true]);
  });

  it('puts “Forgot your password?” on the hosted sign-in and the console’s sign-in, in the page’s language', async () => {
    const { email } = await account();
    const ctx = { db, now: () => new Date() };
    const org = await createOrg(ctx, { name: 'Sign-in Org', ownerEmail: email });
    const client = await createClient(ctx, { org: org.id, name: 'Sign-in App', redirectUris: [REDIRECT], scopes: 'openid identity:read' });
    const authorizationId = await startAuthorization(idp.app, client.client_id);
    const hosted = await request(idp.app).get('/consent').query({ authorization_id: authorizationId }).set('Accept', 'text/html').set('Accept-Language', 'fr');
    expect(hosted.text).toContain(`<a href="/password-reset/new?lang=fr&amp;back=${authorizationId}">Mot de passe oublié ?</a>`);
    const back = await request(idp.app).get('/password-reset/new').query({ lang: 'fr', back: authorizationId }).set('Accept', 'text/html');
    expect(back.text).toContain(`<a href="/consent?authorization_id=${authorizationId}">Retour à la connexion</a>`);
    // The console is no operation of the API document: its own app, unchecked.
    const console = await request(createApp(idp.deps)).get('/console').query({ lang: 'de' });
    expect(console.text).toContain('<a href="/password-reset/new?lang=de&amp;back=console">Passwort vergessen?</a>');
  });
});

describe('the reset throttle', () => {
  it('answers 429 past the requests one source may make, whatever addresses they name, and mails an address at most three times an hour', async () => {
    // A namespace of its own: this file's other tests asked from the same address.
    const own = buildIdp({ MAIL_OUTBOX: '', SMTP_URL: inbox.url, REDIS_KEY_PREFIX: uniqueNamespace('pwreset-throttle') });
    try {
      const { email } = await account();
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await request(own.app).post('/auth/password-reset').send({ email })).status);
      for (let i = 0; i < 15; i++)
        statuses.push(
          (
            await request(own.app)
              .post('/auth/password-reset')
              .send({ email: uniqueEmail('spray') })
          ).status,
        );
      expect(statuses.every((s) => s === 202)).toBe(true);
      const refused = await request(own.app)
        .post('/auth/password-reset')
        .send({ email: uniqueEmail('late') });
      expect([refused.status, refused.body.error, Number(refused.headers['retry-after']) > 0]).toEqual([429, 'rate_limited', true]);
      await own.deps.mailLater.settled();
      expect(inbox.received.filter((m) => m.to.includes(email))).toHaveLength(3);
    } finally {
      await own.deps.close();
    }
  });
});
