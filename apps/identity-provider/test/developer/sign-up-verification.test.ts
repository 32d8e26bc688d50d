// Signing up proves the address before any account exists: the sign-up waits, a single-use link is
// mailed (to a real SMTP server in this process), and only following it, with the password chosen
// at sign-up, makes the account. Attack: opening an account in someone else's name, which an
// operator would later find by that email and vouch for.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AdminError, createOrg, createUser, setPalmVerified } from '@svc/admin';
import { testDb, uniqueEmail } from '@svc/testkit';
import type { Db } from '@svc/db';
import request from 'supertest';
import { createApp } from '../../src/app.js';
import { buildIdp, PRODUCTION_URL, signIn } from '../helpers.js';
import { startSmtpInbox } from '../mail/smtp-inbox.js';
import { as, PASSWORD } from './developers.js';

let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let idp: ReturnType<typeof buildIdp>;
let db: Db;
// A clock the tests move: links expire.
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };

beforeAll(async () => {
  inbox = await startSmtpInbox();
  db = testDb();
  idp = buildIdp({ CONSOLE_SIGNUP: 'open', MAIL_OUTBOX: '', SMTP_URL: inbox.url }, clock);
});
afterAll(async () => {
  await idp.deps.close();
  await inbox.close();
  await db.$disconnect();
});

const signUp = (email: string, extra: Record<string, unknown> = { organization_name: 'Acme' }) =>
  request(idp.app)
    .post('/v2/developer/signup')
    .send({ email, password: PASSWORD, ...extra });
const confirm = (token: string, password = PASSWORD) => request(idp.app).post('/v2/developer/signup/confirm').send({ token, password });
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
const accounts = (email: string) => db.user.count({ where: { email } });
const ACCEPTED = { status: 'verification_sent', expires_in: 1800 };

describe('POST /v2/developer/signup', () => {
  it('makes no account for an address until the link mailed to it is followed with the sign-up’s password', async () => {
    const email = uniqueEmail('victim');
    const res = await signUp(email);
    expect([res.status, res.body]).toEqual([202, ACCEPTED]);
    expect(await accounts(email)).toBe(0);

    const mail = await inbox.next(email);
    expect(mail.subject).toBe('Confirm your developer account');
    expect(mail.text).toContain('within 30 minutes');
    const link = mail.links.find((l) => l.startsWith(`${PRODUCTION_URL}/console/signup/confirm?token=svcsgn_`))!;
    expect(link).toBeDefined();
    // Opening the link (as a mail scanner would) shows a page and makes nothing.
    const page = await request(createApp(idp.deps)).get(new URL(link).pathname + new URL(link).search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Finish creating your account');
    expect(await accounts(email)).toBe(0);
    // The link alone is not enough: whoever follows it must know the password chosen at sign-up.
    const wrong = await confirm(tokenOf(link), 'not the password at all');
    expect([wrong.status, wrong.body.error]).toEqual([401, 'invalid_password']);
    expect(await accounts(email)).toBe(0);

    const made = await confirm(tokenOf(link));
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ user_id: expect.any(String), organization_id: expect.any(String) });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect([user.id, user.selfRegistered]).toEqual([made.body.user_id, true]);
    expect(await db.organization.findUniqueOrThrow({ where: { id: made.body.organization_id } })).toMatchObject({ name: 'Acme', ownerUserId: user.id });
    expect(await signIn(idp.app, email, PASSWORD)).toEqual(expect.any(String));
    // Single use.
    const again = await confirm(tokenOf(link));
    expect([again.status, again.body.error]).toEqual([400, 'signup_link_invalid']);
  });

  it('answers an address that has an account exactly as any other, and mails its owner word of the attempt instead of a link', async () => {
    const taken = uniqueEmail('taken');
    await createUser({ db, now: () => new Date() }, { email: taken, password: 'the owner’s own password' });
    const fresh = uniqueEmail('fresh');
    const [toTaken, toFresh] = [await signUp(taken, { organization_name: 'Squat' }), await signUp(fresh)];
    expect([toTaken.status, toTaken.body]).toEqual([toFresh.status, toFresh.body]);
    expect(toTaken.headers['content-length']).toBe(toFresh.headers['content-length']);
    const mail = await inbox.next(taken);
    expect(mail.subject).toBe('Someone tried to sign up with your address');
    expect(mail.links).toEqual([`${PRODUCTION_URL}/console`]);
    expect(await db.pendingSignup.count({ where: { email: taken } })).toBe(0);
    expect(await db.organization.count({ where: { name: 'Squat' } })).toBe(0);
  });

  it('mails in the language of the request: German and French, with the same link', async () => {
    const email = uniqueEmail('sprache');
    await signUp(email).set('Accept-Language', 'de-DE,de;q=0.9');
    const mail = await inbox.next(email);
    expect(mail.subject).toBe('Bestätigen Sie Ihr Entwicklerkonto');
    expect(mail.text).toContain('innerhalb von 30 Minuten');
    expect(mail.links).toEqual([expect.stringMatching(new RegExp(`^${PRODUCTION_URL}/console/signup/confirm\\?token=svcsgn_`))]);

    const taken = uniqueEmail('langue');
    await createUser({ db, now: () => new Date() }, { email: taken, password: 'the owner’s own password' });
    await signUp(taken).set('Accept-Language', 'fr');
    const word = await inbox.next(taken);
    expect(word.subject).toBe('Quelqu’un a tenté de s’inscrire avec votre adresse');
    expect(word.links).toEqual([`${PRODUCTION_URL}/console`]);
  });

  it('lets a link work for 30 minutes only, and a few wrong passwords end it', async () => {
    const late = uniqueEmail('late');
    await signUp(late);
    const lateLink = (await inbox.next(late)).links[0]!;
    offset = 31 * 60_000;
    try {
      const expired = await confirm(tokenOf(lateLink));
      expect([expired.status, expired.body.error]).toEqual([400, 'signup_link_invalid']);
      expect((await request(createApp(idp.deps)).get(new URL(lateLink).pathname + new URL(lateLink).search)).text).toContain(
        'This sign-up link is unknown, used or expired',
      );
    } finally {
      offset = 0;
    }
    const guessed = uniqueEmail('guessed');
    await signUp(guessed);
    const link = (await inbox.next(guessed)).links[0]!;
    for (let i = 0; i < 5; i++) expect((await confirm(tokenOf(link), `guess number ${i}`)).status).toBe(401);
    const right = await confirm(tokenOf(link));
    expect([right.status, right.body.error]).toEqual([400, 'signup_link_invalid']);
    expect(await accounts(guessed)).toBe(0);
  });

  it('joining by invitation proves the address too: the invitee is a member once the link is followed, not before', async () => {
    const ctx = { db, now: () => new Date() };
    const owner = await createUser(ctx, { email: uniqueEmail('owner'), password: PASSWORD });
    const org = await createOrg(ctx, { name: 'Inviting Org', ownerEmail: owner.email });
    const session = await signIn(idp.app, owner.email, PASSWORD);
    const invitee = uniqueEmail('invitee');
    const invited = await request(idp.app).post('/v2/developer/members').set(as(session)).send({ email: invitee, role: 'developer' });
    const res = await signUp(invitee, { invitation_token: invited.body.invitation_token });
    expect([res.status, res.body]).toEqual([202, ACCEPTED]);
    expect(await accounts(invitee)).toBe(0);
    expect((await db.invitation.findFirstOrThrow({ where: { email: invitee } })).acceptedAt).toBeNull();
    const mail = await inbox.next(invitee);
    expect(mail.text).toContain('joining the organization that invited it');
    const made = await confirm(tokenOf(mail.links[0]!));
    expect(made.body.organization_id).toBe(org.id);
    expect(await db.organizationMember.findFirst({ where: { organizationId: org.id, userId: made.body.user_id } })).toMatchObject({ role: 'developer' });
    expect((await db.user.findUniqueOrThrow({ where: { email: invitee } })).selfRegistered).toBe(true);
  });

  it('leaves the address to the operator: user:create succeeds while a sign-up waits, whose link then makes nothing', async () => {
    const person = uniqueEmail('person');
    await signUp(person, { organization_name: 'Squat' });
    const link = (await inbox.next(person)).links[0]!;
    const ctx = { db, now: () => new Date() };
    const made = await createUser(ctx, { email: person, password: 'set by the operator', palmVerified: true });
    const late = await confirm(tokenOf(link));
    expect([late.status, late.body.error]).toEqual([400, 'signup_link_invalid']);
    expect(await db.user.findUniqueOrThrow({ where: { email: person } })).toMatchObject({ id: made.id, selfRegistered: false });
    expect(await db.organization.count({ where: { name: 'Squat' } })).toBe(0);
  });

  it('marks what it makes as self-registered, which the operator does not vouch for by email alone', async () => {
    const email = uniqueEmail('self-made');
    await signUp(email);
    await confirm(tokenOf((await inbox.next(email)).links[0]!));
    const ctx = { db, now: () => new Date() };
    await expect(setPalmVerified(ctx, { email, verified: true })).rejects.toThrow(AdminError);
    expect((await db.user.findUniqueOrThrow({ where: { email } })).palmVerified).toBe(false);
    await setPalmVerified(ctx, { email, verified: true, selfRegisteredOk: true });
    expect((await db.user.findUniqueOrThrow({ where: { email } })).palmVerified).toBe(true);
  });

  it('mails one address at most five times an hour, however often it is signed up (answering the same)', async () => {
    const email = uniqueEmail('flooded');
    for (let i = 0; i < 7; i++) expect((await signUp(email)).body).toEqual(ACCEPTED);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(inbox.received.filter((m) => m.to.includes(email))).toHaveLength(5);
  });
});
