import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail } from '@svc/testkit';
import { chromium, type Browser } from 'playwright-core';
import { startCallbackServer, startIdentityProvider } from './server.js';

// Debian's Chromium (apt-get install chromium); CHROMIUM_PATH overrides.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// A test here drives several sign-ins through a real browser; on a two-core CI machine running
// other suites beside it, that has taken more than the preset's 20 s. A bound, not a measurement.
jest.setTimeout(60_000);

let db: Db;
let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let browser: Browser;
beforeAll(async () => {
  db = testDb();
  idp = await startIdentityProvider();
  callback = await startCallbackServer();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await idp.stop();
  await callback.close();
  await db.$disconnect();
});

async function setUp(extra: Record<string, string> = {}) {
  const ctx = { db, now: () => new Date() };
  const email = uniqueEmail('browser');
  await createUser(ctx, { email, password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'Browser Org', ownerEmail: email });
  const client = await createClient(ctx, { org: org.id, name: 'Browser App', redirectUris: [callback.url], scopes: 'openid identity:read kyc:read' });
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(8).toString('hex');
  const url = new URL('/oauth/authorize', idp.issuer);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: callback.url,
    response_type: 'code',
    scope: 'openid identity:read kyc:read',
    state,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: email,
    ...extra,
  }).toString();
  return { email, url: url.toString(), state, client };
}

async function signInAndReachConsent(url: string) {
  const page = await (await browser.newContext()).newPage();
  const response = await page.goto(url);
  expect(response!.headers()['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(response!.headers()['x-frame-options']).toBe('DENY');
  // Never a referrer to another site; to this one, so the page's form posts carry its Origin.
  expect(response!.headers()['referrer-policy']).toBe('same-origin');
  await expect(page.locator('h1').textContent()).resolves.toContain('Sign in to continue to Browser App');
  // Keyboard only: the password field has focus (login_hint filled the email), Enter submits.
  await page.waitForFunction("document.activeElement?.id === 'password'");
  await page.keyboard.type('correct horse battery');
  await page.keyboard.press('Enter');
  // The sign-in page has the consent page's URL too: wait for the consent page itself.
  await page.getByRole('heading', { name: 'Browser App would like to access your verified data' }).waitFor();
  await expect(page.locator('main').textContent()).resolves.toContain('Browser Org');
  await expect(page.locator('label').allTextContents()).resolves.toEqual(['Sign you in', 'Basic identity', 'Identity check results']);
  return page;
}

describe('the hosted sign-in and consent pages in a real browser', () => {
  it('follow a redirect through sign-in and consent to the client with code and state', async () => {
    const { url, state } = await setUp();
    const page = await signInAndReachConsent(url);
    await page.getByLabel('Identity check results').uncheck();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('code')).toMatch(/^svccode_/);
    expect(landed.searchParams.get('state')).toBe(state);
    expect(landed.searchParams.get('iss')).toBe(idp.issuer);
    const authorization = await db.authorization.findFirstOrThrow({ where: { state }, select: { grantedScopes: true, status: true } });
    expect(authorization).toEqual({ grantedScopes: ['identity:read', 'openid'], status: 'approved' });
  });

  it('send the user back with access_denied on Deny', async () => {
    const { url, state } = await setUp();
    const page = await signInAndReachConsent(url);
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((u) => u.toString().startsWith(callback.url));
    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(state);
  });

  it('say clearly when the password is wrong', async () => {
    const { url } = await setUp();
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    await page.getByLabel('Password').fill('not my password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe('The email or password is wrong.');
  });

  it('speak the language the request asks for, or else the browser prefers', async () => {
    const german = await setUp({ locale: 'de-CH' });
    const page = await (await browser.newContext({ locale: 'en-US' })).newPage();
    await page.goto(german.url);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
    await page.getByLabel('Passwort').fill('correct horse battery');
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await page.getByRole('heading', { name: 'Browser App möchte auf Ihre verifizierten Daten zugreifen' }).waitFor();
    await expect(page.locator('label').allTextContents()).resolves.toEqual(['Sie anmelden', 'Grundlegende Identität', 'Ergebnisse der Identitätsprüfung']);
    await expect(page.getByRole('button', { name: 'Ablehnen' }).isVisible()).resolves.toBe(true);

    const french = await setUp();
    const fromBrowser = await (await browser.newContext({ locale: 'fr-FR' })).newPage();
    await fromBrowser.goto(french.url);
    await expect(fromBrowser.locator('h1').textContent()).resolves.toBe('Connectez-vous pour continuer vers Browser App');
    await fromBrowser.getByLabel('Mot de passe').fill('wrong password');
    await fromBrowser.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await expect(fromBrowser.getByRole('alert').textContent()).resolves.toBe("L'e-mail ou le mot de passe est incorrect.");
  });
});
