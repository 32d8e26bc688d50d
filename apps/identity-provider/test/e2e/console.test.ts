/// <reference lib="dom" />
// The developer console in a real browser, against a running sandbox, as a new developer uses it:
// sign up, register an application, make an API key, a test user and a token, invite a teammate,
// each secret shown once; what the console made, the API sees; a phone and a desktop width, three
// languages, contrast AA; a form from anywhere else changes nothing.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort, startService, testRedisUrl, testSandboxDatabaseUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { signUpInConsole } from './console-sign-up.js';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, WIDTHS } from './page-checks.js';

jest.setTimeout(120_000);
const shots = screenshotDir('console');
const PASSWORD = 'a long enough password';
let browser: Browser;
let sandbox: StartedService;

beforeAll(async () => {
  const port = await freePort();
  [sandbox, browser] = await Promise.all([
    startService('identity-provider', {
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: await testSandboxDatabaseUrl(),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PRODUCTION_BASE_URL: 'http://127.0.0.1:1',
      IDP_SECRET: randomBytes(32).toString('base64url'),
      REDIS_KEY_PREFIX: uniqueNamespace('console'),
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await sandbox?.stop();
});

async function newPage(width: (typeof WIDTHS)[number] = WIDTHS[1], locale = 'en-US') {
  return (await browser.newContext({ viewport: { width: width.width, height: width.height }, locale })).newPage();
}

/** Signs up through the console's own form and the mailed link (from the sandbox's local outbox); the browser is then signed in. */
async function signUp(page: Page, email = uniqueEmail('console')) {
  await page.goto(`${sandbox.url}/console`);
  await page.getByRole('link', { name: 'No account yet? Create one' }).click();
  await signUpInConsole(page, sandbox.url, { email, password: PASSWORD, organization: 'Acme Health' });
  return email;
}

/** The secret on a "copy it now" page (or a page that names what it is), and back to the console. */
async function copySecret(page: Page, label = 'Copy it now') {
  await page.getByRole('heading', { name: label }).waitFor();
  const secret = (await page.locator('#secret').textContent())!.trim();
  await page.getByRole('link', { name: 'Back to the console' }).click();
  return secret;
}

describe('the developer console in a browser', () => {
  it('takes a new developer from sign-up to an application, a key, a test user and a token, each secret shown once; the API sees the same', async () => {
    const page = await newPage();
    await signUp(page);
    await page.getByText('Sandbox: test data only').waitFor();
    await page.getByText('Acme Health · you are an owner').waitFor();

    await page.locator('#app-name').fill('Check-in');
    await page.getByLabel(/^Redirect URIs/).fill('https://checkin.example/callback\nhttp://localhost:3000/callback');
    await page.getByLabel('kyc:read').check();
    await page.getByRole('button', { name: 'Register application' }).click();
    const clientSecret = await copySecret(page);
    expect(clientSecret).toMatch(/^sbx_svcs_/);
    await page.locator('#applications').getByText('Check-in').waitFor();

    await page.locator('#key-name').fill('staging');
    await page.getByRole('button', { name: 'Create API key' }).click();
    expect(await copySecret(page)).toMatch(/^sbx_svck_/);
    await page.locator('#api-keys').getByText('0 of 1000 requests this hour').waitFor();

    await page.getByLabel('Presets (JSON)').fill('{"date_of_birth": "1990-04-12", "kyc_passed": true}');
    await page.getByLabel('Statuses (JSON)').fill('{"kyc_passed": "pending"}');
    await page.getByRole('button', { name: 'Create test user' }).click();
    // What was made, and that the value shown once is the test user's password.
    await page.getByRole('heading', { level: 1, name: 'Test user created' }).waitFor();
    expect(await page.title()).toBe('Test user created');
    expect(await copySecret(page, 'Password')).toMatch(/^test-/);
    await page.locator('#test-users').getByText('kyc_passed (pending)').waitFor();

    await page.locator('#token-name').fill('CI');
    await page.locator('#tokens').getByRole('button', { name: 'Create' }).first().click();
    const token = await copySecret(page);
    expect(token).toMatch(/^sbx_svcpat_/);

    await page.getByLabel('Email', { exact: true }).last().fill('teammate@example.com');
    await page.getByRole('button', { name: 'Add or invite' }).click();
    expect(await copySecret(page)).toMatch(/^sbx_svcinv_/);

    // What the console made is the API's to see, with the token it gave.
    const apps = (await (await fetch(`${sandbox.url}/v2/developer/applications`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      items: { name: string; redirect_uris: string[]; scopes: string[] }[];
    };
    expect(apps.items).toEqual([
      expect.objectContaining({
        name: 'Check-in',
        redirect_uris: ['https://checkin.example/callback', 'http://localhost:3000/callback'],
        scopes: ['identity:read', 'kyc:read', 'openid'],
      }),
    ]);
    const users = (await (await fetch(`${sandbox.url}/v2/sandbox/users`, { headers: { authorization: `Bearer ${token}` } })).json()) as { items: unknown[] };
    expect(users.items).toHaveLength(1);
    await page.context().close();
  });

  it('registers a private_key_jwt application with its public keys, and no secret', async () => {
    const page = await newPage();
    await signUp(page);
    await page.locator('#app-name').fill('Signed');
    await page.getByLabel(/^Redirect URIs/).fill('https://signed.example/callback');
    await page.getByLabel('How a confidential application authenticates').selectOption('private_key_jwt');
    await page.getByLabel('Its public keys, for private_key_jwt (a JWK Set)').fill(
      JSON.stringify({
        keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
      }),
    );
    await page.getByRole('button', { name: 'Register application' }).click();
    await page.locator('#applications').getByText('confidential · private_key_jwt').waitFor();
    await page.context().close();
  });

  it('says what to correct, field by field, and registers nothing', async () => {
    const page = await newPage();
    await signUp(page);
    await page.locator('#app-name').fill('Bad');
    await page.getByLabel(/^Redirect URIs/).fill('http://evil.example/callback');
    await page.getByRole('button', { name: 'Register application' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('redirect_uris[0]: must use https (http is allowed only for localhost)');
    await page.locator('#applications').getByText('None yet.').waitFor();
    await page.context().close();
  });

  it('changes nothing for a form posted from another site, or without the session’s CSRF token', async () => {
    const page = await newPage();
    await signUp(page);
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'sbx_svc_session')!;
    const forged = async (headers: Record<string, string>) =>
      (
        await fetch(`${sandbox.url}/console/api-keys`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sbx_svc_session=${session.value}`, ...headers },
          body: 'permissions=wallet%3Averify',
        })
      ).status;
    expect(await forged({ origin: 'https://evil.example' })).toBe(403);
    expect(await forged({ origin: sandbox.url })).toBe(403);
    await page.reload();
    await page.locator('#api-keys').getByText('None yet.').waitFor();
    await page.context().close();
  });

  it('answers odd input with a page or a refusal, never a server error (repeated lang, a JSON body, a client_id with a NUL)', async () => {
    expect((await fetch(`${sandbox.url}/console?lang=en&lang=de`)).status).toBe(200);
    const page = await fetch(`${sandbox.url}/console`);
    const cookie = page.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())![1]!;
    const json = await fetch(`${sandbox.url}/console/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, origin: sandbox.url },
      body: JSON.stringify({ csrf_token: csrf, email: 123, password: ['x'] }),
    });
    expect(json.status).toBe(401);
    const browser = await newPage();
    await signUp(browser);
    const session = (await browser.context().cookies()).find((c) => c.name === 'sbx_svc_session')!;
    const dashboard = await (await fetch(`${sandbox.url}/console`, { headers: { cookie: `sbx_svc_session=${session.value}` } })).text();
    const token = /name="csrf_token" value="([^"]+)"/.exec(dashboard)![1]!;
    const nul = await fetch(`${sandbox.url}/console/applications/a%00b/revoke`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `sbx_svc_session=${session.value}`, origin: sandbox.url },
      body: `csrf_token=${encodeURIComponent(token)}`,
    });
    expect(nul.status).toBe(404);
    await browser.context().close();
  });

  it('tries a sign-in for an application: a test user signs in and consents, and the page shows the code, the exchange and the tokens', async () => {
    const page = await newPage();
    await signUp(page);
    await page.locator('#app-name').fill('Try me');
    await page.getByLabel(/^Redirect URIs/).fill('https://tryme.example/callback');
    await page.getByRole('button', { name: 'Register application' }).click();
    const clientSecret = await copySecret(page);
    await page.getByRole('button', { name: 'Create test user' }).click();
    await page.getByRole('heading', { level: 1, name: 'Test user created' }).waitFor();
    const email = (await page.locator('code').first().textContent())!.trim();
    const password = await copySecret(page, 'Password');

    await page.locator('#applications').getByRole('button', { name: 'Try a sign-in' }).click();
    // The developer's own session does not answer for the try: whoever is to sign in, does.
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.getByRole('heading', { level: 1, name: 'Try a sign-in' }).waitFor();
    expect(page.url()).toMatch(new RegExp(`^${sandbox.url}/console/try-callback\\?`));
    expect((await page.locator('#code').textContent())!.trim()).toMatch(/^sbx_svccode_/);
    const exchange = (await page.locator('#exchange').textContent())!;
    expect(exchange).toContain('grant_type=authorization_code');
    expect(exchange).toContain('code_verifier=');
    expect(exchange).toContain('[client secret redacted]');
    expect(exchange).not.toContain(clientSecret);
    const response = JSON.parse((await page.locator('#token-response').textContent())!) as { access_token: string; id_token: string };
    expect(response.access_token).toBeTruthy();
    const claims = JSON.parse((await page.locator('#id-token-claims').textContent())!) as { iss: string; nonce: string };
    expect(claims.iss).toBe(sandbox.url);
    await page.getByText('nonce matches the one sent').waitFor();

    // The same callback again (a replayed state) is refused, and the grant it made stands.
    const replay = await page.goto(page.url());
    expect(replay!.status()).toBe(400);
    await page.getByRole('heading', { name: 'This sign-in cannot be finished' }).waitFor();
    const userinfo = await fetch(`${sandbox.url}/v2/userinfo`, { headers: { authorization: `Bearer ${response.access_token}` } });
    expect(userinfo.status).toBe(200);
    await page.context().close();
  });

  it('refuses a try callback with a foreign state, or from a browser that did not start it, and changes nothing', async () => {
    const page = await newPage();
    await signUp(page);
    await page.locator('#app-name').fill('Try me');
    await page.getByLabel(/^Redirect URIs/).fill('https://tryme.example/callback');
    await page.getByLabel('Public (PKCE alone: mobile or single-page)').check();
    await page.getByRole('button', { name: 'Register application' }).click();
    await page.locator('#applications').getByRole('button', { name: 'Try a sign-in' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    const authorizationId = new URL(page.url()).searchParams.get('authorization_id')!;

    // Another browser, with no binding of this try: refused.
    const stranger = await newPage();
    const foreign = await stranger.goto(`${sandbox.url}/console/try-callback?code=sbx_svccode_x&state=guessed`);
    expect(foreign!.status()).toBe(400);
    await stranger.context().close();
    // This browser, with a state the console did not make: refused, and the try still stands.
    const wrong = await page.goto(`${sandbox.url}/console/try-callback?code=sbx_svccode_x&state=not-the-one`);
    expect(wrong!.status()).toBe(400);
    await page.getByText('belongs to no sign-in this console started').waitFor();
    // Repeated or missing parameters: 400, never a server error.
    expect((await page.goto(`${sandbox.url}/console/try-callback?state=a&state=b`))!.status()).toBe(400);
    expect((await page.goto(`${sandbox.url}/console/try-callback`))!.status()).toBe(400);
    // The pending authorization is still there to be signed in to.
    await page.goto(`${sandbox.url}/consent?authorization_id=${authorizationId}`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    await page.context().close();
  });

  it('opened at another name of this machine, moves to the announced address, says so, and its forms work there', async () => {
    const page = await newPage();
    const elsewhere = sandbox.url.replace('127.0.0.1', 'localhost');
    await page.goto(`${elsewhere}/console/signup`);
    expect(page.url()).toBe(`${sandbox.url}/console/signup?address=moved`);
    await page.getByText(`The console works at ${sandbox.url} only`).waitFor();
    await signUpInConsole(page, sandbox.url, { email: uniqueEmail('moved'), password: PASSWORD, organization: 'Acme Health' });
    await page.getByText('Acme Health · you are an owner').waitFor();
    await page.context().close();
  });

  it('fits a phone and a desktop, in English, German and French, with AA contrast', async () => {
    for (const [locale, heading] of [
      ['en-US', 'Developer console'],
      ['de-DE', 'Bei der Entwicklerkonsole anmelden'],
      ['fr-FR', 'Se connecter à la console développeur'],
    ] as const) {
      for (const width of WIDTHS) {
        const page = await newPage(width, locale);
        await page.goto(`${sandbox.url}/console`);
        if (locale === 'en-US') {
          await signUp(page);
          await page.locator('#app-name').fill('Check-in');
          await page.getByLabel(/^Redirect URIs/).fill('https://checkin.example/callback');
          await page.getByRole('button', { name: 'Register application' }).click();
          await copySecret(page);
        }
        expect((await page.getByRole('heading', { level: 1 }).textContent())?.trim()).toBe(heading);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect((await lowestContrast(page)).ratio).toBeGreaterThanOrEqual(4.5);
        await saveScreenshot(page, {
          path: join(shots, `console-${locale === 'en-US' ? 'dashboard' : `sign-in-${locale.slice(0, 2)}`}-${width.name}.png`),
          fullPage: true,
        });
        await page.context().close();
      }
    }
  });
});
