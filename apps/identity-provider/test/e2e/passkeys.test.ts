/// <reference lib="dom" />
// Passkeys in a real browser: Chromium's virtual authenticator (DevTools' WebAuthn domain) makes
// and uses them through the hosted pages, whose script calls the API, against the built service on
// `localhost` (WebAuthn refuses an IP address as RP ID). The account page is checked at a phone and
// a desktop width in three languages; screenshots as pages.test.ts takes them.
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import type { Db } from '@svc/db';
import { testDb, uniqueEmail } from '@svc/testkit';
import * as oidc from 'openid-client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, unreachableByKeyboard, WIDTHS } from './page-checks.js';
import { startCallbackServer, startIdentityProvider } from './server.js';

jest.setTimeout(90_000);

const PASSWORD = 'correct horse battery';
const shots = screenshotDir('passkeys');
let db: Db;
let idp: Awaited<ReturnType<typeof startIdentityProvider>>;
let callback: Awaited<ReturnType<typeof startCallbackServer>>;
let browser: Browser;
beforeAll(async () => {
  db = testDb();
  [idp, callback, browser] = await Promise.all([startIdentityProvider({ hostname: 'localhost' }), startCallbackServer(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await callback?.close();
  await db?.$disconnect();
});

const newUser = async () => {
  const email = uniqueEmail('passkeys');
  const user = await createUser({ db, now: () => new Date() }, { email, password: PASSWORD, palmVerified: true });
  return { email, id: user.id };
};

/** A browser context with an authenticator built in (a phone's or laptop's: internal, resident keys, user verification). */
async function withAuthenticator(context: BrowserContext, page: Page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable', { enableUI: false });
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function signInWithPassword(page: Page, email: string) {
  await page.goto(`${idp.issuer}/account`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: `Signed in as ${email}` }).waitFor();
}

async function authorizeUrl(email: string) {
  const ctx = { db, now: () => new Date() };
  const org = await createOrg(ctx, { name: 'Acme Health', ownerEmail: email });
  const client = await createClient(ctx, { org: org.id, name: 'Acme Check-in', redirectUris: [callback.url], scopes: 'openid identity:read' });
  const url = new URL('/oauth/authorize', idp.issuer);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: callback.url,
    response_type: 'code',
    scope: 'openid identity:read',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString();
  return url.toString();
}

/** A person signed in with a password on the account page who has just added a passkey there, in a browser with an authenticator. */
async function withNewPasskey(name?: string) {
  const user = await newUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await withAuthenticator(context, page);
  await signInWithPassword(page, user.email);
  if (name) await page.getByLabel('Name of the new passkey (optional)').fill(name);
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByText(name ?? 'Passkey 1', { exact: true }).waitFor();
  return { user, context, page };
}

const latestSession = (userId: string) => db.session.findFirstOrThrow({ where: { userId }, orderBy: { createdAt: 'desc' } });

describe('passkeys on the hosted pages', () => {
  it('adds a passkey on the account page, renames it, and signs in with it on the sign-in page as phr', async () => {
    const user = await newUser();
    const context = await browser.newContext();
    const page = await context.newPage();
    const authenticator = await withAuthenticator(context, page);
    await signInWithPassword(page, user.email);
    await page.getByText('You have no passkeys yet.').waitFor();

    await page.getByLabel('Name of the new passkey (optional)').fill('Laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Laptop', { exact: true }).waitFor();
    expect(await authenticator.credentials()).toEqual([expect.objectContaining({ isResidentCredential: true, rpId: 'localhost' })]);
    const stored = await db.passkey.findFirstOrThrow({ where: { userId: user.id } });
    expect(stored).toMatchObject({ name: 'Laptop', attestedHardware: false, transports: ['internal'] });
    await expect(page.locator('ul.passkeys .meta').textContent()).resolves.toMatch(/^Added .* · not used yet · on one device only$/);

    await page.getByLabel('New name for Laptop').fill('Work laptop');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.getByText('Work laptop', { exact: true }).waitFor();

    // Signed out, the sign-in page of an application offers the passkey first. Its autofill is
    // turned off here (the next test has it), so that the button is what signs in.
    await page.addInitScript(() => Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: undefined }));
    await context.clearCookies();
    await page.goto(await authorizeUrl(user.email));
    await expect(page.locator('input#email').getAttribute('autocomplete')).resolves.toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    expect(await latestSession(user.id)).toMatchObject({ acr: 'phr', amr: ['swk', 'user'] });
    expect((await db.passkey.findUniqueOrThrow({ where: { id: stored.id } })).lastUsedAt).not.toBeNull();
    await context.close();
  });

  it('steps up: a password session asked for acr phr signs in again with the passkey, and the id_token says phr', async () => {
    const { user, context, page } = await withNewPasskey('Phone');

    const org = await createOrg({ db, now: () => new Date() }, { name: 'Step-up Bank', ownerEmail: user.email });
    const client = await createClient(
      { db, now: () => new Date() },
      { org: org.id, name: 'Step-up Bank', redirectUris: [callback.url], scopes: 'openid identity:read' },
    );
    const config = await oidc.discovery(new URL(idp.issuer), client.client_id, client.client_secret!, undefined, { execute: [oidc.allowInsecureRequests] });
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: callback.url,
      scope: 'openid identity:read',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: 'step-up',
      nonce: 'step-up-nonce',
      acr_values: 'phr',
    });
    // Signed in with a password: asked for a passkey instead of the consent page. The button signs
    // in (the email field's autofill would too, at once: the next test has it).
    await page.addInitScript(() => Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: undefined }));
    await page.goto(url.toString());
    await page.getByText('Step-up Bank asks you to sign in with a passkey.').waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.toString().startsWith(callback.url));
    const tokens = await oidc.authorizationCodeGrant(config, new URL(page.url()), {
      pkceCodeVerifier: verifier,
      expectedState: 'step-up',
      expectedNonce: 'step-up-nonce',
      idTokenExpected: true,
    });
    expect(tokens.claims()).toMatchObject({ acr: 'phr', amr: ['swk', 'user'] });
    await context.close();
  });

  it('signs in from the email field’s autofill (conditional mediation) where the browser offers it', async () => {
    const { user, context, page } = await withNewPasskey();
    await context.clearCookies();
    // Asked on a page of the same origin without script: the sign-in page's own background request
    // may be answered, and the page gone, before a question asked there returns.
    await page.goto(`${idp.issuer}/health`);
    const conditional = await page.evaluate(() => PublicKeyCredential.isConditionalMediationAvailable?.() ?? false);
    expect(conditional).toBe(true);
    await page.goto(`${idp.issuer}/account`);
    // With presence simulated, Chromium's virtual authenticator answers the page's background
    // request itself, as a person picking the passkey from the email field's suggestions would.
    await page.getByRole('heading', { name: `Signed in as ${user.email}` }).waitFor();
    expect(await latestSession(user.id)).toMatchObject({ acr: 'phr' });
    await context.close();
  });

  it('opens the developer console with a passkey, from its own sign-in page', async () => {
    const { user, context, page } = await withNewPasskey();
    await createOrg({ db, now: () => new Date() }, { name: 'Passkey Labs', ownerEmail: user.email });
    await page.addInitScript(() => Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: undefined }));
    await context.clearCookies();
    await page.goto(`${idp.issuer}/console`);
    await expect(page.locator('input#email').getAttribute('autocomplete')).resolves.toBe('username webauthn');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('Passkey Labs').first().waitFor();
    expect(await latestSession(user.id)).toMatchObject({ acr: 'phr', amr: ['swk', 'user'] });
    await context.close();
  });

  it('deletes a passkey on the account page, after which the API lists none', async () => {
    const { context, page } = await withNewPasskey();
    await page.getByRole('button', { name: 'Delete Passkey 1' }).click();
    await page.getByText('You have no passkeys yet.').waitFor();
    // The page's own origin, cookie and all, as its script calls the API.
    const listed = await page.evaluate(async () => (await fetch('/v2/me/passkeys')).json());
    expect(listed).toEqual({ items: [] });
    await context.close();
  });
});

describe('the account page, at a phone and a desktop width', () => {
  it('fits, has AA contrast and every control by keyboard, in English, German and French', async () => {
    const user = await newUser();
    for (const [locale, added] of [
      ['en-US', 'Add a passkey'],
      ['de-DE', 'Passkey hinzufügen'],
      ['fr-FR', 'Ajouter une clé d’accès'],
    ] as const) {
      for (const size of WIDTHS) {
        const context = await browser.newContext({ viewport: { width: size.width, height: size.height }, locale });
        const page = await context.newPage();
        await withAuthenticator(context, page);
        await page.goto(`${idp.issuer}/account`);
        await page
          .getByRole('button', {
            name: { 'en-US': 'Sign in with a passkey', 'de-DE': 'Mit einem Passkey anmelden', 'fr-FR': 'Se connecter avec une clé d’accès' }[locale],
          })
          .waitFor();
        if (locale === 'en-US') await saveScreenshot(page, { path: join(shots, `sign-in-passkey-${size.name}.png`), fullPage: true });
        await page.locator('#email').fill(user.email);
        await page.locator('#password').fill(PASSWORD);
        await page.locator('form[action="/account/sign-in"] button').click();
        await page.getByRole('button', { name: added }).waitFor();
        if ((await page.locator('ul.passkeys li').count()) === 0) {
          await page.locator('#passkey-name').fill('Phone');
          await page.getByRole('button', { name: added }).click();
          await page.locator('ul.passkeys li').first().waitFor();
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect((await lowestContrast(page)).ratio).toBeGreaterThanOrEqual(4.5);
        expect(await unreachableByKeyboard(page)).toEqual([]);
        await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
        if (locale === 'en-US') await saveScreenshot(page, { path: join(shots, `account-passkeys-${size.name}.png`), fullPage: true });
        await context.close();
      }
    }
  });
});
