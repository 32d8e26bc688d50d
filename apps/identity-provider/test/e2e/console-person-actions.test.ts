/// <reference lib="dom" />
// One person, one action in the developer console, in a real browser, as a developer sets up a
// vote: add it, change its limit, forget its counts (the sandbox), delete it; a refusal names the
// fields; the section reads in German and French, fits a phone and passes AA contrast.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { freePort, startService, testRedisUrl, testSuiteDatabaseUrl, uniqueEmail, uniqueNamespace, type StartedService } from '@svc/testkit';
import type { Browser, Page } from 'playwright-core';
import { signUpInConsole } from './console-sign-up.js';
import { launchChromium, lowestContrast, saveScreenshot, screenshotDir, WIDTHS } from './page-checks.js';

jest.setTimeout(120_000);
const shots = screenshotDir('console-actions');
let browser: Browser;
let idp: StartedService;

beforeAll(async () => {
  const port = await freePort();
  [idp, browser] = await Promise.all([
    startService('identity-provider', {
      SVC_ENVIRONMENT: 'sandbox',
      DATABASE_URL: await testSuiteDatabaseUrl('console_actions'),
      PORT: String(port),
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      PRODUCTION_BASE_URL: 'http://127.0.0.1:1',
      IDP_SECRET: randomBytes(32).toString('base64url'),
      REDIS_KEY_PREFIX: uniqueNamespace('console-actions'),
      ...(testRedisUrl() ? { REDIS_URL: testRedisUrl() } : {}),
    }),
    launchChromium(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await idp?.stop();
});

async function signedIn(width: (typeof WIDTHS)[number] = WIDTHS[1]): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: width.width, height: width.height } })).newPage();
  await signUpInConsole(page, idp.url, { email: uniqueEmail('actions'), password: 'a long enough password', organization: 'Acme Votes' });
  return page;
}

/** The form that adds an action, filled. */
async function addAction(page: Page, input: { name: string; description?: string; max: string; period: string; palm: boolean }) {
  const form = page.locator('form[action="/console/actions"]');
  await form.getByLabel('Name').fill(input.name);
  if (input.description) await form.getByLabel('Description (optional)').fill(input.description);
  await form.getByLabel('Proofs per person').fill(input.max);
  await form.getByLabel('The count starts anew').selectOption({ label: input.period });
  await form.getByLabel('Only palm-verified people').setChecked(input.palm);
  await form.getByRole('button', { name: 'Add action' }).click();
}

describe('actions in the developer console', () => {
  it('adds a vote, changes its limit, forgets its counts and deletes it', async () => {
    const page = await signedIn();
    const section = page.locator('#actions');
    await section.getByText('No actions yet.').waitFor();
    await page.getByRole('link', { name: 'One person, one action' }).click();

    await addAction(page, { name: 'board-vote-2026', description: 'Board election', max: '1', period: 'never', palm: true });
    await section.getByText('once per person · starts anew: never · palm-verified people only').waitFor();
    await section.getByText('Board election').waitFor();
    await section.getByText('0 proofs counted').waitFor();

    // Changed in place: the form under "Change" holds the action's values.
    const card = section.locator('li', { hasText: 'board-vote-2026' });
    await card.getByText('Change').click();
    const change = card.locator('form[action="/console/actions/board-vote-2026"]');
    expect(await change.getByLabel('Proofs per person').inputValue()).toBe('1');
    await change.getByLabel('Proofs per person').fill('3');
    await change.getByLabel('The count starts anew').selectOption({ label: 'each week (UTC, from Monday)' });
    await change.getByLabel('Only palm-verified people').uncheck();
    await change.getByRole('button', { name: 'Save' }).click();
    await section.getByText('3 times per person · starts anew: each week (UTC, from Monday)', { exact: true }).waitFor();

    // The sandbox's reset, then the deletion.
    await section.getByRole('button', { name: 'Forget its counts (sandbox)' }).click();
    await section.getByText('0 proofs counted').waitFor();
    await section.getByRole('button', { name: 'Delete with its counts' }).click();
    await section.getByText('No actions yet.').waitFor();
    await page.context().close();
  });

  it('names each field to correct and adds nothing', async () => {
    const page = await signedIn();
    await addAction(page, { name: 'Board Vote', max: '1', period: 'never', palm: true });
    const alert = (await page.getByRole('alert').textContent())!;
    expect(alert).toContain('action: must be 1 to 64 of a-z 0-9 _ . -');
    await page.locator('#actions').getByText('No actions yet.').waitFor();
    await page.context().close();
  });

  it('reads in German and French', async () => {
    const page = await signedIn();
    await addAction(page, { name: 'free-trial', max: '1', period: 'each month (UTC)', palm: false });
    await page.goto(`${idp.url}/console?lang=de`);
    const section = page.locator('#actions');
    await section.getByRole('heading', { name: 'Eine Person, eine Aktion' }).waitFor();
    await section.getByText('einmal pro Person · beginnt neu: jeden Monat (UTC)').waitFor();
    await section.getByRole('button', { name: 'Aktion hinzufügen' }).waitFor();
    await page.goto(`${idp.url}/console?lang=fr`);
    await section.getByRole('heading', { name: 'Une personne, une action' }).waitFor();
    await section.getByText('une fois par personne · repart à zéro : chaque mois (UTC)').waitFor();
    await section.locator('form[action="/console/actions"]').getByLabel('Preuves par personne').waitFor();
    await page.context().close();
  });

  it('fits a phone with an action listed, with AA contrast', async () => {
    const page = await signedIn(WIDTHS[0]);
    await addAction(page, {
      name: 'airdrop.claim-season-one',
      description: 'One claim per person, to the wallet address sent as the signal',
      max: '1',
      period: 'never',
      palm: true,
    });
    await page.locator('#actions').getByText('airdrop.claim-season-one').waitFor();
    await saveScreenshot(page.locator('#actions'), { path: join(shots, 'console-actions-phone.png') });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect((await lowestContrast(page)).ratio).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });
});
