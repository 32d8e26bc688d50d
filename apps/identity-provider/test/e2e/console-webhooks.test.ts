/// <reference lib="dom" />
// Webhooks in the developer console, in a real browser, as a developer sets one up: add an endpoint
// (its secret shown once), send a test event to a receiver that fails, see the failed delivery with
// its response, retry it once the receiver is back, rotate the secret, disable, enable and delete.
// Every delivery the receiver gets is checked with standardwebhooks, a verifier this project did not
// write. The service has a database of its own: no other suite's identity provider delivers from it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort, startService, testRedisUrl, testSuiteDatabaseUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { headersOf, startReceiver } from '../webhooks/receiver.js';
import { join } from 'node:path';
import { signUpInConsole } from './console-sign-up.js';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, WIDTHS } from './page-checks.js';

jest.setTimeout(120_000);
const shots = screenshotDir('console-webhooks');
let browser: Browser;
let idp: StartedService;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  const port = await freePort();
  [idp, browser, receiver] = await Promise.all([
    startService('identity-provider', {
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: await testSuiteDatabaseUrl('console_webhooks'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PRODUCTION_BASE_URL: 'http://127.0.0.1:1',
      IDP_SECRET: randomBytes(32).toString('base64url'),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      REDIS_KEY_PREFIX: uniqueNamespace('console-webhooks'),
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    }),
    launchChromium(),
    startReceiver(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
  await receiver?.close();
});

async function until(what: string, probe: () => boolean) {
  const deadline = Date.now() + 30_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function signedIn(width: (typeof WIDTHS)[number] = WIDTHS[1]): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: width.width, height: width.height } })).newPage();
  await signUpInConsole(page, idp.url, { email: uniqueEmail('hooks'), password: 'a long enough password', organization: 'Acme Health' });
  return page;
}

async function copySecret(page: Page) {
  await page.getByRole('heading', { name: 'Copy it now' }).waitFor();
  await page.getByText('This is shown once. Verify each delivery with it').waitFor();
  const secret = (await page.locator('#secret').textContent())!.trim();
  await page.getByRole('link', { name: 'Back to the console' }).click();
  return secret;
}

describe('webhooks in the developer console', () => {
  it('adds an endpoint, shows a failed test delivery with its response, retries it, rotates, disables, enables and deletes', async () => {
    const page = await signedIn();
    const section = page.locator('#webhooks');
    await section.getByText('No endpoints yet.').waitFor();
    await page.getByLabel('Endpoint URL (https)').fill(receiver.url);
    await section.getByLabel('Description (optional)').fill('Revocations to the CRM');
    await page.getByLabel('credential.revoked').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = await copySecret(page);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    await section.getByText('Revocations to the CRM').waitFor();
    await section.getByText('authorization.approved, authorization.revoked, authorization.data_window_ended, user.data_changed, credential.revoked').waitFor();

    // The receiver is down: the test event's delivery is shown failing, with what the receiver said.
    receiver.answer(...Array(20).fill(503));
    await section.getByRole('button', { name: 'Send test event' }).click();
    await until('the first attempt', () => receiver.received.length >= 1);
    await page.reload();
    await section.getByText(/pending · 1 attempt · HTTP 503 in \d+ ms/).waitFor();
    await section.getByText(/^next attempt/).waitFor();

    // Back up: "Retry now" delivers at once, with the same webhook-id, signed with the secret shown once.
    receiver.heal();
    const before = receiver.received.length;
    await section.getByRole('button', { name: 'Retry now' }).click();
    await until('the retry', () => receiver.received.length > before);
    const [first, last] = [receiver.received[0]!, receiver.received.at(-1)!];
    expect(last.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(new Webhook(secret).verify(last.body, headersOf(last))).toMatchObject({ type: 'webhook.test' });
    // The receiver has it; the delivery is recorded as delivered a moment after its answer.
    const deadline = Date.now() + 15_000;
    for (;;) {
      await page.reload();
      // Every delivery made: the list is folded away, one click from view.
      if ((await section.locator('details').getAttribute('open')) === null) {
        await section.getByText('Recent deliveries').click();
        if (await section.getByText(/delivered · \d attempts · HTTP 200/).isVisible()) break;
      }
      if (Date.now() > deadline) throw new Error('the retried delivery was never shown as delivered');
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(await section.getByRole('button', { name: 'Retry now' }).count()).toBe(0);

    // A new secret, shown once; the old one keeps signing beside it for a day.
    await section.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await copySecret(page);
    expect(rotated).not.toBe(secret);
    await section.getByText('the previous secret also signs until').waitFor();

    await section.getByRole('button', { name: 'Disable' }).click();
    await section.getByText('disabled', { exact: true }).waitFor();
    expect(await section.getByRole('button', { name: 'Send test event' }).count()).toBe(0);
    await section.getByRole('button', { name: 'Enable' }).click();
    await section.getByText('enabled', { exact: true }).waitFor();

    await section.getByRole('button', { name: 'Delete' }).click();
    await section.getByText('No endpoints yet.').waitFor();
    await page.context().close();
  });

  it('says what to correct and adds nothing: a URL that is not http(s), no event type', async () => {
    const page = await signedIn();
    const section = page.locator('#webhooks');
    await page.getByLabel('Endpoint URL (https)').fill('ftp://hooks.example/in');
    for (const type of ['authorization.approved', 'authorization.revoked', 'authorization.data_window_ended', 'user.data_changed'])
      await page.getByLabel(type, { exact: true }).uncheck();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const alert = (await page.getByRole('alert').textContent())!;
    expect(alert).toContain('url: must be an https URL');
    expect(alert).toContain('events: must list at least one event type');
    await section.getByText('No endpoints yet.').waitFor();
    await page.context().close();
  });

  it('fits a phone with an endpoint listed, with AA contrast', async () => {
    const page = await signedIn(WIDTHS[0]);
    await page.getByLabel('Endpoint URL (https)').fill(`${receiver.url}/a-rather-long-path/that-must-wrap-on-a-phone`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await copySecret(page);
    await saveScreenshot(page.locator('#webhooks'), { path: join(shots, 'console-webhooks-phone.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await lowestContrast(page)).ratio).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });
});
