/// <reference lib="dom" />
// Resetting a forgotten password in a real browser, against the built identity provider sending its
// mail through SMTP to a server in this process: from the sign-in page's "Forgot your password?"
// to signing in with the new password. Every page fits a phone, has AA contrast and is usable by
// keyboard; the request log never carries a link's token.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { freePort, startService, testDatabaseUrl, testDb, testRedisUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { SECRET } from '../helpers.js';
import { startSmtpInbox } from '../mail/smtp-inbox.js';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, unreachableByKeyboard, WIDTHS } from './page-checks.js';

jest.setTimeout(120_000);
const shots = screenshotDir('password-reset');
const OLD = 'the old password, forgotten';
const NEW = 'a brand new password';
const CALLBACK = 'https://app.example/callback';

let browser: Browser;
let idp: StartedService;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let db: Db;

beforeAll(async () => {
  const port = await freePort();
  inbox = await startSmtpInbox();
  db = testDb();
  [idp, browser] = await Promise.all([
    startService('identity-provider', {
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: testDatabaseUrl(),
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
      IDP_SECRET: SECRET,
      REDIS_KEY_PREFIX: uniqueNamespace('password-reset-e2e'),
      SMTP_URL: inbox.url,
      // Every request's log line, successes too: the test reads them for tokens.
      LOG_LEVEL: 'debug',
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await inbox?.close();
  await db?.$disconnect();
});

/** A person with an account, and the sign-in page of an app they use. */
async function person() {
  const ctx = { db, now: () => new Date() };
  const email = uniqueEmail('reset-e2e');
  await createUser(ctx, { email, password: OLD, palmVerified: true });
  const org = await createOrg(ctx, { name: 'Acme Health', ownerEmail: email });
  const client = await createClient(ctx, { org: org.id, name: 'Acme Check-in', redirectUris: [CALLBACK], scopes: 'openid identity:read' });
  const url = new URL('/oauth/authorize', idp.url);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: CALLBACK,
    response_type: 'code',
    scope: 'openid identity:read',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: email,
  }).toString();
  return { email, signInUrl: url.toString() };
}

const apiSignIn = async (email: string, password: string) =>
  fetch(`${idp.url}/auth/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
const sessionAlive = async (token: string) =>
  (await fetch(`${idp.url}/v2/developer/organization`, { headers: { authorization: `Bearer ${token}` } })).status !== 401;

/** The checks every page passes at both widths; a screenshot of each. */
async function checkPage(open: (page: Page) => Promise<void>, name: string, locale = 'en-US') {
  for (const size of WIDTHS) {
    const page = await (await browser.newContext({ viewport: { width: size.width, height: size.height }, locale })).newPage();
    await open(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    expect((await lowestContrast(page)).ratio).toBeGreaterThanOrEqual(4.5);
    expect(await unreachableByKeyboard(page)).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await saveScreenshot(page, { path: join(shots, `${name}-${size.name}.png`), fullPage: true });
    await page.context().close();
  }
}

/** From the sign-in page to the mailed link, in one browser: the link. */
async function askForLink(page: Page, signInUrl: string, email: string): Promise<string> {
  await page.goto(signInUrl);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Mail me a link' }).click();
  await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
  return nextResetLink(email);
}

/** The link of the next reset mail to `email` (passing over word of a changed password). */
async function nextResetLink(email: string): Promise<string> {
  for (;;) {
    const mail = await inbox.next(email);
    if (mail.subject === 'Reset your password') return mail.links[0]!;
  }
}

describe('resetting a forgotten password in the browser', () => {
  it('from “Forgot your password?” to signing in with the new password; the other sessions end when the box stays ticked', async () => {
    const { email, signInUrl } = await person();
    const elsewhere = (await (await apiSignIn(email, OLD)).json()) as { session_token: string };
    const page = await (await browser.newContext()).newPage();
    const link = await askForLink(page, signInUrl, email);

    await page.goto(link);
    await page.getByText('Your passkeys are kept').waitFor();
    expect(await page.getByLabel('Sign me out everywhere else').isChecked()).toBe(true);
    await page.getByLabel('New password (8 characters or more)').fill(NEW);
    await page.getByLabel('New password, again').fill(NEW);
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is changed, and you are signed out everywhere else.').waitFor();
    expect(await sessionAlive(elsewhere.session_token)).toBe(false);

    await page.goto(signInUrl);
    await page.getByLabel('Password').fill(NEW);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect((await apiSignIn(email, OLD)).status).toBe(401);

    // The link is spent: opening it again says so, and offers a new one.
    await page.goto(link);
    await page.getByText('This reset link is unknown, used or expired').waitFor();
    await page.context().close();

    // Nothing secret in the request log: routes by their template, never a query or a token.
    const log = idp.running.output();
    expect(log).toContain('"route":"/password-reset"');
    expect(log).not.toContain(new URL(link).searchParams.get('token')!);
    expect(log).not.toContain('token=');
  });

  it('keeps the other sessions when the box is unticked', async () => {
    const { email, signInUrl } = await person();
    const elsewhere = (await (await apiSignIn(email, OLD)).json()) as { session_token: string };
    const page = await (await browser.newContext()).newPage();
    await page.goto(await askForLink(page, signInUrl, email));
    await page.getByLabel('Sign me out everywhere else').uncheck();
    await page.getByLabel('New password (8 characters or more)').fill(NEW);
    await page.getByLabel('New password, again').fill(NEW);
    // Keyboard alone: Enter sends the form.
    await page.getByLabel('New password, again').press('Enter');
    await page.getByText('Your password is changed.').waitFor();
    expect(await sessionAlive(elsewhere.session_token)).toBe(true);
    expect((await apiSignIn(email, NEW)).status).toBe(200);
    await page.context().close();
  });
});

describe('the reset pages, at a phone and a desktop width', () => {
  it('the request form, “check your mail”, the new-password form and “password changed” fit, contrast AA, every control by keyboard', async () => {
    const { email, signInUrl } = await person();
    await checkPage(async (page) => {
      await page.goto(signInUrl);
      await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    }, 'sign-in-with-reset-link');
    await checkPage((page) => page.goto(`${idp.url}/password-reset/new`).then(() => undefined), 'password-reset-request');
    await checkPage(async (page) => {
      await page.goto(`${idp.url}/password-reset/new`);
      await page.getByLabel('Email').fill(uniqueEmail('nobody'));
      await page.getByRole('button', { name: 'Mail me a link' }).click();
      await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    }, 'password-reset-sent');
    const page = await (await browser.newContext()).newPage();
    const link = await askForLink(page, signInUrl, email);
    await page.context().close();
    // Opening the link changes nothing: each width opens it afresh.
    await checkPage((p) => p.goto(link).then(() => undefined), 'password-reset-form');
    // A link works once: each width asks for its own (the address's third and last mail this hour).
    await checkPage(async (p) => {
      await fetch(`${idp.url}/auth/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
      await p.goto(await nextResetLink(email));
      await p.getByLabel('New password (8 characters or more)').fill(NEW);
      await p.getByLabel('New password, again').fill(NEW);
      await p.getByRole('button', { name: 'Set the new password' }).click();
      await p.getByRole('heading', { name: 'Password changed' }).waitFor();
    }, 'password-reset-done');
  });

  it('speaks German and French, from the sign-in page’s link to the form', async () => {
    const { signInUrl } = await person();
    for (const [locale, forgot, heading] of [
      ['de-DE', 'Passwort vergessen?', 'Passwort zurücksetzen'],
      ['fr-FR', 'Mot de passe oublié ?', 'Réinitialiser votre mot de passe'],
    ] as const) {
      const page = await (await browser.newContext({ locale })).newPage();
      await page.goto(signInUrl);
      await page.getByRole('link', { name: forgot }).click();
      await page.getByRole('heading', { name: heading }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale.slice(0, 2));
      await page.context().close();
    }
  });
});
