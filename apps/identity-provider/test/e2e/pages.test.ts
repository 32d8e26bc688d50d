/// <reference lib="dom" />
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, createOrg, createUser } from '@svc/admin';
import { repoRoot, uniqueEmail } from '@svc/testkit';
import { chromium, type Browser, type Page } from 'playwright-core';
import { useRunningIdp } from './server.js';

// What an end user sees: every hosted page at a phone and a desktop width, in a real browser.
// Screenshots go to docs/screenshots with UPDATE_SCREENSHOTS=1 (the README shows them), else to a
// scratch directory: taken either way, so a page that cannot render fails here.
jest.setTimeout(90_000);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;
const shots = process.env.UPDATE_SCREENSHOTS ? join(repoRoot, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'pages-'));
mkdirSync(shots, { recursive: true });

const suite = useRunningIdp();
let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
});
afterAll(async () => {
  await browser?.close();
});

async function authorizeUrl(extra: Record<string, string> = {}) {
  const ctx = { db: suite.db, now: () => new Date() };
  const email = uniqueEmail('pages');
  await createUser(ctx, { email, password: 'correct horse battery', palmVerified: true });
  const org = await createOrg(ctx, { name: 'Acme Health', ownerEmail: email });
  const client = await createClient(ctx, { org: org.id, name: 'Acme Check-in', redirectUris: [suite.callback.url], scopes: 'openid identity:read kyc:read' });
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

/** WCAG 2.1 contrast of every visible text against the background it is drawn on. */
function lowestContrast(page: Page) {
  return page.evaluate(() => {
    const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r, g, b]: number[]) => {
      const lin = (v: number) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(b!);
    };
    const background = (el: Element | null): number[] => {
      for (let e = el; e; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c.length === 3 || (c.length === 4 && c[3]! > 0)) return c.slice(0, 3);
      }
      return [255, 255, 255];
    };
    let lowest = { ratio: 21, text: '' };
    for (const el of document.querySelectorAll('body *')) {
      const own = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim());
      const box = el.getBoundingClientRect();
      if (!own || box.width === 0 || box.height === 0) continue;
      const [a, b] = [luminance(rgb(getComputedStyle(el).color)), luminance(background(el))];
      const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      if (ratio < lowest.ratio) lowest = { ratio: Math.round(ratio * 100) / 100, text: el.textContent!.trim().slice(0, 40) };
    }
    return lowest;
  });
}

/** Tab through the page from the top: every control must be reached. */
async function unreachableByKeyboard(page: Page) {
  const controls = await page.evaluate(() =>
    [...document.querySelectorAll('a[href], button, input:not([type=hidden]), summary')].map((el) => el.outerHTML.slice(0, 60)),
  );
  const reached = new Set<string>();
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < controls.length + 2; i++) {
    await page.keyboard.press('Tab');
    reached.add(await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 60) ?? ''));
  }
  return controls.filter((c) => !reached.has(c));
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
    await page.screenshot({ path: join(shots, `${name}-${size.name}.png`), fullPage: name !== 'docs' });
    await page.context().close();
  }
}

async function signIn(page: Page, url: string) {
  await page.goto(url);
  await page.getByLabel('Password').fill('correct horse battery');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Approve' }).waitFor();
}

describe('hosted pages, at a phone and a desktop width', () => {
  it('sign-in: fits, contrast AA, every control by keyboard, the primary action marked', async () => {
    const { url } = await authorizeUrl();
    await checkPage(async (page) => {
      await page.goto(url);
      await expect(page.locator('button.primary').textContent()).resolves.toBe('Sign in');
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
    }, 'consent');

    const page = await (await browser.newContext()).newPage();
    await signIn(page, url);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to continue to Acme Check-in' }).waitFor();
    expect((await page.context().cookies()).map((c) => c.name)).not.toContain('svc_session');
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
