/// <reference lib="dom" />
// What every page a person sees must pass in a real browser (the hosted pages, the console).
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '@svc/testkit';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const WIDTHS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** docs/screenshots with UPDATE_SCREENSHOTS=1 (the docs show them), else a scratch directory: taken either way. */
export function screenshotDir(scratch: string): string {
  const dir = process.env.UPDATE_SCREENSHOTS ? join(repoRoot, 'docs', 'screenshots') : mkdtempSync(join(tmpdir(), `${scratch}-`));
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
}

/** WCAG 2.1 contrast of every visible text against the background it is drawn on. */
export function lowestContrast(page: Page) {
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
export async function unreachableByKeyboard(page: Page) {
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

/**
 * Saves a screenshot for the docs. Chromium now and then answers "Unable to capture screenshot"
 * when the machine is busy (the page is fine: the checks before it passed); one more try then.
 */
export async function saveScreenshot(target: Page | Locator, options: { path: string; fullPage?: boolean }): Promise<void> {
  try {
    await target.screenshot(options);
  } catch (err) {
    if (!String(err).includes('Unable to capture screenshot')) throw err;
    await target.screenshot(options);
  }
}
