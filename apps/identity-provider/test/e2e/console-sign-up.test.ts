/// <reference lib="dom" />
// Signing up in the console, in a real browser, against a running sandbox that sends its mail
// through SMTP to a server in this process: nothing exists until the mailed link is followed and
// its page's form is sent with the password; opening the link alone makes nothing.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createPrismaClient, type Db } from '@svc/db';
import { freePort, startService, testRedisUrl, testSandboxDatabaseUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import type { Browser } from 'playwright-core';
import { startSmtpInbox } from '../mail/smtp-inbox.js';
import { signUpInConsole } from './console-sign-up.js';
import { launchChromium } from './page-checks.js';

jest.setTimeout(120_000);
const PASSWORD = 'a long enough password';
let browser: Browser;
let sandbox: StartedService;
let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;
let db: Db;

beforeAll(async () => {
  const port = await freePort();
  inbox = await startSmtpInbox();
  const databaseUrl = await testSandboxDatabaseUrl();
  db = createPrismaClient(databaseUrl, { poolSize: 2 });
  [sandbox, browser] = await Promise.all([
    startService('identity-provider', {
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PRODUCTION_BASE_URL: 'http://127.0.0.1:1',
      IDP_SECRET: randomBytes(32).toString('base64url'),
      REDIS_KEY_PREFIX: uniqueNamespace('console-sign-up'),
      SMTP_URL: inbox.url,
      MAIL_FROM: 'Sandbox ID <id@sandbox.example>',
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
  await inbox?.close();
  await db?.$disconnect();
});

describe('signing up in the console', () => {
  it('makes the account only when the mailed link’s page is sent with the password, then signs the browser in', async () => {
    const email = uniqueEmail('console-smtp');
    const page = await (await browser.newContext()).newPage();
    let opened = false;
    await signUpInConsole(page, sandbox.url, { email, password: PASSWORD, organization: 'Acme Health' }, async (to) => {
      const mail = await inbox.next(to);
      expect(mail.subject).toBe('[Sandbox] Confirm your developer account');
      expect(mail.from).toBe('id@sandbox.example');
      // Until the link is followed, nobody has this address.
      expect(await db.user.count({ where: { email } })).toBe(0);
      opened = true;
      return mail.links[0]!;
    });
    expect(opened).toBe(true);
    await page.getByText('Acme Health · you are an owner').waitFor();
    expect(await db.user.findUniqueOrThrow({ where: { email } })).toMatchObject({ selfRegistered: true });
    // The link is spent: opening it again shows the sign-up form with why.
    const [mail] = inbox.received.filter((m) => m.to.includes(email));
    const again = await (await browser.newContext()).newPage();
    await again.goto(mail!.links[0]!);
    await again.getByText('This sign-up link is unknown, used or expired').waitFor();
    await page.context().close();
    await again.context().close();
  });

  it('opening a link, as a mail scanner would, makes nothing; a wrong password is refused on the page', async () => {
    const email = uniqueEmail('scanned');
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${sandbox.url}/console/signup`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (8 characters or more)').fill(PASSWORD);
    await page.getByLabel('Organization name').fill('Scanned Ltd');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();
    const link = (await inbox.next(email)).links[0]!;
    expect((await fetch(link)).status).toBe(200);
    await page.goto(link);
    await page.getByRole('heading', { name: 'Finish creating your account' }).waitFor();
    expect(await db.user.count({ where: { email } })).toBe(0);
    await page.getByLabel('Password chosen at sign-up').fill('somebody else’s guess');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('This is not the password chosen at sign-up').waitFor();
    expect(await db.user.count({ where: { email } })).toBe(0);
    await page.context().close();
  });
});
