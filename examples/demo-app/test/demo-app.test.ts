import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createClient, seedDemo, type DemoData } from '@svc/admin';
import { createPrismaClient, type Db } from '@svc/db';
import { freePort, repoRoot, startService, testRedisUrl, testSuiteDatabaseUrl, uniqueNamespace, type StartedService } from '@svc/testkit';
import { CredentialIssuerClient } from '@svc/sdk';
import { chromium, type Browser, type Page } from 'playwright-core';
import request from 'supertest';
// The credential issuer's own test wallets, made of outside libraries: one takes an offer (OpenID4VCI), one answers a request (OpenID4VP).
import { newHolder, receive } from '../../../apps/credential-issuer/test/openid4vci/wallet.js';
import {
  answer,
  credentialQuery,
  dcApiAnswer,
  presentSdJwtVc,
  resolveDcApiRequest,
  resolveRequest,
  type WalletRequest,
} from '../../../apps/credential-issuer/test/openid4vp/library-wallet.js';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { EventLog, registerReceiver } from '../src/webhooks.js';

// Sign-ins through a real browser on a shared two-core machine: a bound, not a measurement.
jest.setTimeout(90_000);

let db: Db;
let demo: DemoData;
let idp: StartedService;
let issuer: StartedService;
let server: Server;
let appUrl: string;
let browser: Browser;
const events = new EventLog();

beforeAll(async () => {
  // A database of its own: the identity provider here delivers webhooks to the app, and no other suite's does.
  const databaseUrl = await testSuiteDatabaseUrl('demo_app');
  db = createPrismaClient(databaseUrl, { poolSize: 4 });
  demo = await seedDemo({ db, now: () => new Date() });
  const port = await freePort();
  idp = await startService('identity-provider', {
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    REDIS_KEY_PREFIX: uniqueNamespace('demo-app'),
    IDP_SECRET: randomBytes(32).toString('base64url'),
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  });
  // Its credential issuer, where the app offers the person a wallet credential with its API token.
  const issuerPort = await freePort();
  issuer = await startService('credential-issuer', {
    DATABASE_URL: databaseUrl,
    ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    REDIS_KEY_PREFIX: uniqueNamespace('demo-app-issuer'),
    PORT: String(issuerPort),
    PUBLIC_URL: `http://127.0.0.1:${issuerPort}`,
    SIGNING_WORKERS: '1',
  });
  // The demo app on a port of this run's choosing, its client registered for that callback.
  const appPort = await freePort();
  appUrl = `http://127.0.0.1:${appPort}`;
  const client = await createClient(
    { db, now: () => new Date() },
    { org: demo.organization.id, name: 'Demo relying party', redirectUris: [`${appUrl}/callback`], scopes: 'openid identity:read kyc:read' },
  );
  const config = loadConfig({
    DEMO_APP_PORT: String(appPort),
    IDP_URL: idp.url,
    DEMO_CLIENT_ID: client.client_id,
    DEMO_CLIENT_SECRET: client.client_secret!,
    DEMO_REDIRECT_URI: `${appUrl}/callback`,
    CREDENTIAL_ISSUER_URL: issuer.url,
    DEMO_ISSUER_API_TOKEN: demo.api_keys.credential_issuer.key,
  });
  server = await new Promise<Server>((resolve) => {
    const s = createApp({ config, events }).listen(appPort, '127.0.0.1', () => resolve(s));
  });
  events.secret = await registerReceiver(idp.url, demo.users.developer, `${appUrl}/webhooks`);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
}, 90_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((r) => server?.close(r));
  await Promise.all([idp?.stop(), issuer?.stop()]);
  await db?.$disconnect();
});

async function signIn(shoot = false): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.goto(appUrl);
  if (shoot) await fitsAndShoot(page, 'signed-out');
  await page.getByRole('link', { name: 'Sign in with the identity provider' }).click();
  await page.getByLabel('Email').fill(demo.users.palm_verified.email);
  await page.getByLabel('Password').fill(demo.users.palm_verified.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Demo relying party would like to access your verified data' }).waitFor();
  return page;
}

const text = (page: Page, selector: string) => page.locator(selector).innerText();

/** The guide's stand-in wallet (apps/credential-issuer/scripts/wallet.mjs): the whole OpenID4VCI flow from a scanned link. */
async function runWallet(link: string, txCode: string): Promise<{ disclosed: Record<string, unknown>; payload: Record<string, unknown> }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [join(repoRoot, 'apps/credential-issuer/scripts/wallet.mjs'), 'receive', link, '--tx-code', txCode],
    {
      cwd: repoRoot,
    },
  );
  return JSON.parse(stdout);
}
// With UPDATE_SCREENSHOTS=1 the pictures go to docs/screenshots (the demo app's README shows them).
const shots = process.env.UPDATE_SCREENSHOTS ? join(repoRoot, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), 'demo-app-'));
afterAll(() => {
  if (!process.env.UPDATE_SCREENSHOTS) rmSync(shots, { recursive: true, force: true });
});

/** Both widths: nothing wider than the screen, and a picture of each. */
async function fitsAndShoot(page: Page, name: string) {
  for (const [size, width] of [
    ['phone', 390],
    ['desktop', 1280],
  ] as const) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.evaluate('document.documentElement.scrollWidth')).resolves.toBeLessThanOrEqual(width);
    // Timestamps stay on one line, headers break only between words (after an underscore), and no section scrolls sideways.
    const broken = await page.evaluate(
      `[...document.querySelectorAll('time, th, section')]
        .filter((el) => (el.tagName === 'TIME' && el.getClientRects().length > 1) || el.scrollWidth > el.clientWidth + 1)
        .map((el) => el.textContent)`,
    );
    expect(broken).toEqual([]);
    await page.screenshot({ path: join(shots, `demo-app-${name}-${size}.png`), fullPage: true });
  }
}

describe('the demo relying party in Chromium', () => {
  it('signs in with PKCE, shows user info, presets, a query and the change list, and revokes', async () => {
    const page = await signIn(true);
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('heading', { name: 'Demo relying party: signed in' }).waitFor();
    await expect(page.getByRole('status').innerText()).resolves.toContain('Signed in');
    await expect(text(page, '#userinfo')).resolves.toMatch(/sub\s+\S+/);
    // A list of scopes reads as the scopes, not as JSON.
    await expect(text(page, '#userinfo')).resolves.toMatch(/scopes\s+identity:read kyc:read openid/);
    const presets = await text(page, '#presets');
    expect(presets).toMatch(/age_over_18\s+true valid/);
    expect(presets).toMatch(/kyc_passed\s+true valid/);
    expect(presets).toMatch(/nationality\s+"?[A-Z]{2}/);
    await expect(text(page, '#query')).resolves.toMatch(/age ≥ 18 and identity check passed\s+"?yes/);
    await expect(text(page, '#changes')).resolves.toMatch(/active/);
    await expect(text(page, '#token')).resolves.toContain('Scopes granted: identity:read kyc:read openid');
    await fitsAndShoot(page, 'dashboard');

    // The age it read, offered to the person's wallet: a QR code and a code to type; a wallet takes it.
    await page.getByRole('button', { name: 'Put it in my wallet' }).click();
    await page.locator('#wallet svg').waitFor();
    const txCode = (await page.locator('#wallet .code').innerText()).trim();
    expect(txCode).toMatch(/^\d{6}$/);
    const link = (await page.getByRole('link', { name: 'Open it in your wallet' }).getAttribute('href'))!;
    expect(link).toMatch(/^openid-credential-offer:\/\/\?credential_offer_uri=/);
    await fitsAndShoot(page, 'wallet-offer');
    const wallet = await runWallet(link, txCode);
    expect(wallet.disclosed).toEqual({ age_over_18: true });
    expect(wallet.payload).toMatchObject({ iss: issuer.url, vct: `${issuer.url}/credential-types/age-over` });

    await page.getByRole('button', { name: 'Revoke access' }).click();
    await expect(page.getByRole('status').innerText()).resolves.toBe(
      "Access revoked at the identity provider. The app's old access token is now refused: 401 invalid_token: The access token has been revoked.",
    );
    await expect(page.getByRole('link', { name: 'Sign in with the identity provider' }).isVisible()).resolves.toBe(true);
    const revoked = await db.authorization.findMany({ where: { application: { name: 'Demo relying party' }, status: 'revoked' } });
    expect(revoked.length).toBeGreaterThanOrEqual(1);
    // The identity provider pushed both to the app's receiver, which shows them.
    let shown = '';
    for (let i = 0; i < 40 && !(shown.includes('authorization.approved') && shown.includes('authorization.revoked')); i++) {
      await new Promise((r) => setTimeout(r, 250));
      await page.reload();
      shown = await text(page, '#webhooks');
    }
    expect(shown).toContain('authorization.approved');
    expect(shown).toContain('authorization.revoked');
  });

  it('says so in plain words when the user denies, and the app holds no token', async () => {
    const page = await signIn();
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect(page.getByRole('alert').innerText()).resolves.toBe('You declined: the app got nothing. Sign in again whenever you like.');
    await expect(page.getByRole('link', { name: 'Sign in with the identity provider' }).isVisible()).resolves.toBe(true);
  });
});

/** A person's wallet with this issuer's age credential (an SD-JWT VC), taken from an offer as any wallet takes one. */
async function walletWithAge() {
  const client = new CredentialIssuerClient({ baseUrl: issuer.url, apiToken: demo.api_keys.credential_issuer.key, timeoutMs: 30_000 });
  const holder = await newHolder('ES256');
  const offer = await client.offer({ configurationId: 'age_over_sd_jwt', claims: { age_over_18: true }, txCode: true });
  const { credential } = await receive(holder, offer.offer_link, offer.tx_code);
  const privateJwk = await crypto.subtle.exportKey('jwk', holder.privateKey);
  /** The vp_token for a request: the credential, disclosing what was asked, bound to the request's nonce (or another). */
  const present = async (wallet: WalletRequest, nonce?: string) => {
    const { id } = credentialQuery(wallet, 'dc+sd-jwt');
    return { [id]: [await presentSdJwtVc(credential, privateJwk, wallet, { queryId: id, ...(nonce ? { nonce } : {}) })] };
  };
  return { present, issuerUrl: offer.credential_offer.credential_issuer };
}

/**
 * A page in a browser where no wallet is installed, given one: navigator.credentials.get answers
 * `digital` requests with the wallet above, which resolves the signed request for the page's
 * origin and answers it (a wrong nonce when `lie.nonce` is set), as a browser's wallet would.
 */
async function pageWithWallet(wallet: Awaited<ReturnType<typeof walletWithAge>>, lie: { nonce?: string } = {}): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await page.exposeFunction('__walletAnswer', async (data: Record<string, unknown>, origin: string) => {
    const asked = await resolveDcApiRequest(data, origin);
    return dcApiAnswer(asked, await wallet.present(asked, lie.nonce));
  });
  // A string: these tests are type-checked without the DOM's types.
  await page.addInitScript(`
    window.DigitalCredential ??= class DigitalCredential {};
    const get = navigator.credentials.get.bind(navigator.credentials);
    navigator.credentials.get = async (options) => {
      if (!options?.digital) return get(options);
      const [asked] = options.digital.requests;
      const data = await window.__walletAnswer(asked.data, location.origin);
      // Own values over the prototype's getters, where this Chromium has a DigitalCredential of its own.
      return Object.create(DigitalCredential.prototype, { protocol: { value: asked.protocol, enumerable: true }, data: { value: data, enumerable: true } });
    };`);
  return page;
}

async function askForProof(page: Page): Promise<void> {
  await page.goto(appUrl);
  await page.getByRole('button', { name: 'Prove with your wallet' }).click();
  await page.locator('#proof svg').waitFor();
}

describe('proving an age with a wallet, in Chromium', () => {
  it('shows verified with age_over_18 true when a wallet in the browser answers over the Digital Credentials API', async () => {
    const wallet = await walletWithAge();
    const page = await pageWithWallet(wallet);
    await askForProof(page);
    await expect(text(page, '#proof-result')).resolves.toMatch(/status\s+pending/);
    const link = await page.getByRole('link', { name: 'open it in the wallet on this phone' }).getAttribute('href');
    expect(link).toMatch(/^openid4vp:\/\/\?client_id=/);
    await page.getByRole('button', { name: 'Use a wallet in this browser' }).click();
    await page.locator('#proof[data-status="verified"]').waitFor();
    const shown = await text(page, '#proof-result');
    expect(shown).toMatch(/status\s+verified/);
    expect(shown).toMatch(/age_over_18\s+true/);
    expect(shown).toContain(wallet.issuerUrl);
    // The outcome is the session's: a reload shows it as the server read it.
    await page.reload();
    await expect(text(page, '#proof-result')).resolves.toMatch(/age_over_18\s+true/);
    await fitsAndShoot(page, 'wallet-proof');
  });

  it('shows the failed check when the wallet’s answer is bound to another nonce, the request still open for another', async () => {
    const page = await pageWithWallet(await walletWithAge(), { nonce: 'another-nonce' });
    await askForProof(page);
    await page.getByRole('button', { name: 'Use a wallet in this browser' }).click();
    await page.locator('#proof-result', { hasText: 'failed check' }).waitFor();
    const shown = await text(page, '#proof-result');
    expect(shown).toMatch(/status\s+pending: the last answer was refused/);
    expect(shown).toMatch(/failed check\s+nonce/);
    expect(await page.locator('#proof').getAttribute('data-status')).toBe('pending');
  });

  it('shows the answer of a wallet that scanned the QR code as it arrives, without a reload', async () => {
    const wallet = await walletWithAge();
    const page = await (await browser.newContext()).newPage();
    await askForProof(page);
    const link = (await page.getByRole('link', { name: 'open it in the wallet on this phone' }).getAttribute('href'))!;
    const scanned = await resolveRequest(link);
    expect((await answer(scanned, await wallet.present(scanned))).status).toBe(200);
    await page.locator('#proof[data-status="verified"]').waitFor();
    await expect(text(page, '#proof-result')).resolves.toMatch(/age_over_18\s+true/);
  });

  it('says so plainly in a browser without the Digital Credentials API', async () => {
    const page = await (await browser.newContext()).newPage();
    // A browser that has none, whatever this Chromium ships.
    await page.addInitScript('delete window.DigitalCredential;');
    await askForProof(page);
    await page.getByRole('button', { name: 'Use a wallet in this browser' }).click();
    await expect(page.locator('#proof-alert').innerText()).resolves.toContain('This browser has no Digital Credentials API');
  });
});

describe('the demo relying party over HTTP', () => {
  it('refuses a callback it did not start, and a form post without its CSRF token', async () => {
    const agent = request.agent(appUrl);
    const callback = await agent.get('/callback?code=abc&state=xyz');
    expect(callback.status).toBe(303);
    // Not exchanged: a code it did not ask for is shown to its holder (the npm start banner's URL), never used.
    await expect(agent.get('/').then((r) => r.text)).resolves.toContain('A code arrived that this app did not ask for');
    await agent.get('/callback?state=xyz');
    await expect(agent.get('/').then((r) => r.text)).resolves.toContain('Sign-in failed: This sign-in was not started here');
    expect((await agent.post('/revoke').type('form').send({ csrf: 'forged' })).status).toBe(403);
  });

  it('starts the flow with S256 PKCE, a fresh state and its exact redirect URI, and sets strict headers', async () => {
    const res = await request(appUrl).get('/login');
    expect(res.status).toBe(303);
    const location = new URL(res.headers.location!);
    expect(location.origin + location.pathname).toBe(`${idp.url}/oauth/authorize`);
    expect(Object.fromEntries(location.searchParams)).toMatchObject({
      response_type: 'code',
      redirect_uri: `${appUrl}/callback`,
      code_challenge_method: 'S256',
      scope: 'openid identity:read kyc:read',
    });
    expect(location.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(res.headers['set-cookie']![0]).toMatch(/HttpOnly; SameSite=Lax/);
    const page = await request(appUrl).get('/');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('refuses a wallet post without its CSRF token, and relays nothing when the session asked no wallet', async () => {
    const agent = request.agent(appUrl);
    const home = await agent.get('/');
    const csrf = /name="csrf" value="([^"]+)"/.exec(home.text)![1]!;
    expect((await agent.post('/proof').type('form').send({ csrf: 'forged' })).status).toBe(403);
    const data = { response: 'eyJhbGciOiJFQ0RILUVTIn0.x.y.z.w' };
    expect((await agent.post('/proof/dc-api-response').send({ csrf: 'forged', data })).status).toBe(403);
    // With its token, but no request waiting in this session: nothing reaches the credential issuer.
    const relayed = await agent.post('/proof/dc-api-response').send({ csrf, data });
    expect(relayed.status).toBe(409);
    expect(relayed.body.error).toMatch(/No wallet request is waiting/);
    expect((await agent.get('/proof/result')).status).toBe(404);
    const script = await agent.get('/proof.js');
    expect(script.headers['content-type']).toMatch(/javascript/);
  });

  it('reads its client from .data/demo.json when the environment names none, and says what is missing otherwise', () => {
    expect(() => loadConfig({}, '/nonexistent/demo.json')).toThrow(/DEMO_CLIENT_ID: .*set DEMO_CLIENT_ID and DEMO_CLIENT_SECRET/);
  });
});
