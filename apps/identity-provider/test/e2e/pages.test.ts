/// <reference lib="dom" />
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import { uniqueEmail } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, unreachableByKeyboard, WIDTHS } from './page-checks.js';
import { useRunningIdp } from './server.js';

// What an end user sees: every hosted page at a phone and a desktop width, in a real browser.
// Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1 (the README shows them), else to a
// scratch directory: taken either way, so a page that cannot render fails here.
jest.setTimeout(90_000);

const shots = screenshotDir('pages');

const suite = useRunningIdp();
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const signedOutUrl = () => suite.callback.url.replace('/callback', '/signed-out');

async function authorizeUrl(extra: Record<string, string> = {}) {
  const ctx = { db: suite.db, now: () => new Date() };
  const email = uniqueEmail('pages');
  await createUser(ctx, { email, password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'Acme Health', ownerEmail: email });
  const client = await createClient(ctx, {
    org: org.id,
    name: 'Acme Check-in',
    redirectUris: [suite.callback.url],
    scopes: 'openid identity:read kyc:read',
    postLogoutRedirectUris: [signedOutUrl()],
  });
  const url = new URL('/oauth/authorize', suite.idp.issuer);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: suite.callback.url,
    response_type: 'code',
    scope: 'openid identity:read kyc:read',
    state: randomBytes(8).toString('hex'),
    code_challenge: createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url'),
    code_challenge_method: 'S256',
    login_hint: email,
    ...extra,
  }).toString();
  return { email, url: url.toString(), client };
}

/** The checks every page passes at both widths; a screenshot of each. */
async function checkPage(open: (page: Page) => Promise<void>, name: string, locale = 'en-US', keyboard = true) {
  for (const size of WIDTHS) {
    const page = await (await browser.newContext({ viewport: { width: size.width, height: size.height }, locale })).newPage();
    await open(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const contrast = await lowestContrast(page);
    expect(contrast.ratio).toBeGreaterThanOrEqual(4.5);
    if (keyboard) expect(await unreachableByKeyboard(page)).toEqual([]);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // /docs is long: its first screen is enough to show.
    await saveScreenshot(page, { path: join(shots, `${name}-${size.name}.png`), fullPage: name !== 'docs' });
    await page.context().close();
  }
}

async function signIn(page: Page, url: string) {
  await page.goto(url);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
}

const host = () => new URL(suite.idp.issuer).host;

describe('hosted pages, at a phone and a desktop width', () => {
  it('sign-in: fits, contrast AA, every control by keyboard, the primary action marked', async () => {
    const { url } = await authorizeUrl();
    await checkPage(async (page) => {
      await page.goto(url);
      await expect(page.locator('form[action="/consent/sign-in"] button.primary').textContent()).resolves.toBe('Sign in');
      // Whose account this is: the host the person can check in the address bar (and a name, where IDP_DISPLAY_NAME gives one).
      await expect(page.locator('p.provider').textContent()).resolves.toBe(`Your account · ${host()}`);
    }, 'sign-in');
  });

  it('consent: Approve is the primary action, Deny the secondary, and "Not you? Sign out" leads back to sign-in', async () => {
    const { url, email } = await authorizeUrl();
    await checkPage(async (page) => {
      await signIn(page, url);
      await expect(page.locator('button.primary').textContent()).resolves.toBe('Approve');
      const [approve, deny] = await Promise.all(
        ['Approve', 'Deny'].map((name) => page.getByRole('button', { name }).evaluate((b) => getComputedStyle(b).backgroundColor)),
      );
      expect(approve).not.toBe(deny);
      await expect(page.locator('form.account').textContent()).resolves.toContain(`Not ${email}?`);
      await expect(page.locator('p.provider').textContent()).resolves.toBe(`Your account · ${host()}`);
      // The legend sits inside the box: the fieldset's top border runs above it, not through its text.
      const [legend, box] = await Promise.all(['legend', 'fieldset'].map((s) => page.locator(s).boundingBox()));
      expect(legend!.y).toBeGreaterThanOrEqual(box!.y + 1);
    }, 'consent');

    const page = await (await browser.newContext()).newPage();
    await signIn(page, url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Acme Check-in' }).waitFor();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('svc_session');
  });

  it('consent for a wallet: the credentials it asks for and the facts each holds, above the scopes; Approve sends the code back', async () => {
    const details = JSON.stringify([
      { type: 'openid_credential', credential_configuration_id: 'age_over_sd_jwt' },
      { type: 'openid_credential', credential_configuration_id: 'kyc_sd_jwt' },
    ]);
    const { url } = await authorizeUrl({ authorization_details: details, scope: 'openid' });
    await checkPage(async (page) => {
      await signIn(page, url);
      const wallet = page.locator('fieldset.wallet');
      await expect(wallet.locator('legend').textContent()).resolves.toBe('Credentials for this app’s wallet');
      await expect(wallet.locator('li').allTextContents()).resolves.toEqual([
        'Age: Over 18, Over 21',
        'Identity check (KYC): Identity checked, Country of residence',
      ]);
      await expect(wallet.locator('small').textContent()).resolves.toMatch(/^Issued by issuer\.example from your verified data/);
      // The credentials come first; the scopes beside them are still the person's to tick.
      const [credentials, scopes] = await Promise.all(['fieldset.wallet', 'fieldset:not(.wallet)'].map((s) => page.locator(s).boundingBox()));
      expect(credentials!.y).toBeLessThan(scopes!.y);
    }, 'consent-wallet');

    const page = await (await browser.newContext()).newPage();
    await signIn(page, url);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.waitForURL((u) => u.href.startsWith(suite.callback.url));
    expect(new URL(page.url()).searchParams.get('code')).toMatch(/^svccode_/);
    await page.context().close();
  });

  it('sign-out an app asks for: the page asks whose account, Sign out is the primary action, and it returns with state', async () => {
    const { url, email, client } = await authorizeUrl();
    const logoutUrl = `${suite.idp.issuer}/oauth/logout?${new URLSearchParams({ client_id: client.client_id, post_logout_redirect_uri: signedOutUrl(), state: 'bye' })}`;
    await checkPage(async (page) => {
      await signIn(page, url);
      await page.goto(logoutUrl);
      await expect(page.locator('button.primary').textContent()).resolves.toBe('Sign out');
      await expect(page.locator('p.provider').textContent()).resolves.toBe(`Your account · ${host()}`);
      await expect(page.getByText(`Sign out as ${email}?`, { exact: false }).count()).resolves.toBe(1);
    }, 'sign-out');

    const page = await (await browser.newContext()).newPage();
    await signIn(page, url);
    await page.goto(logoutUrl);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`${signedOutUrl()}?state=bye`);
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('svc_session');
    await page.goto(url);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    // Nobody signed in, no return address: the signed-out page says whose account, in plain words.
    await page.goto(`${suite.idp.issuer}/oauth/logout?client_id=${client.client_id}`);
    await expect(page.locator('p.provider').textContent()).resolves.toBe(`Your account · ${host()}`);
    await expect(page.locator('main p').last().textContent()).resolves.toBe('You are signed out. You can close this page.');
  });

  it.each([
    ['en-US', 'This sign-in link is not valid, so we cannot continue.', 'Details for the app’s developers'],
    ['de-DE', 'Dieser Anmeldelink ist ungültig, daher können wir nicht fortfahren.', 'Details für die Entwickler der Anwendung'],
    ['fr-FR', 'Ce lien de connexion n’est pas valide : nous ne pouvons pas continuer.', 'Détails pour les développeurs de l’application'],
  ])('a broken link (%s): plain words and a next step, the technical reason folded away', async (locale, said, details) => {
    const { url } = await authorizeUrl();
    const wrongReturn = url.replace(encodeURIComponent(suite.callback.url), encodeURIComponent('https://evil.example/cb'));
    await checkPage(
      async (page) => {
        const response = await page.goto(wrongReturn);
        expect(response!.status()).toBe(400);
        await expect(page.getByRole('alert').textContent()).resolves.toBe(said);
        await expect(page.locator('p.provider').textContent()).resolves.toMatch(new RegExp(` · ${host()}$`));
        await expect(page.locator('summary').textContent()).resolves.toBe(details);
        // The developer jargon is there for whoever opens it, not in the sentence a person reads.
        await expect(page.locator('details code').textContent()).resolves.toMatch(/redirect_uri/);
      },
      `error-${locale.slice(0, 2)}`,
      locale,
    );
  });

  it('the API documentation (/docs): fits a phone, schemas as tables, contrast AA', async () => {
    await checkPage(
      async (page) => {
        await page.goto(`${suite.idp.issuer}/docs`);
        await expect(page.locator('#schema-OAuthError ~ table th').first().textContent()).resolves.toBe('member');
        // Every folded schema opened: the widest content must still fit.
        await page.evaluate(() => {
          for (const d of document.querySelectorAll('details')) d.open = true;
        });
      },
      'docs',
      'en-US',
      false,
    );
  });

  it('a link missing its parameters is a page for a browser, JSON for an API caller', async () => {
    const page = await (await browser.newContext()).newPage();
    const response = await page.goto(`${suite.idp.issuer}/oauth/authorize?response_type=code`);
    expect(response!.status()).toBe(400);
    expect(response!.headers()['content-type']).toMatch(/^text\/html/);
    await expect(page.getByRole('alert').textContent()).resolves.toBe('This sign-in link is not valid, so we cannot continue.');
    await expect(page.locator('details code').textContent()).resolves.toMatch(/query\.client_id/);
    const api = await fetch(`${suite.idp.issuer}/oauth/authorize?response_type=code`, { headers: { accept: 'application/json' } });
    expect(api.headers.get('content-type')).toMatch(/^application\/json/);
    await page.context().close();
  });
});
