/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

import { createHash } from 'node:crypto';
import type { Response } from 'express';
import type { Locale } from './locales/locale.js';
import { pageTexts } from './locales/registry.js';

// Colours pass WCAG AA on white (text #1b1b1b 17:1, secondary #555 7.5:1, error #a40000 8.6:1,
// white on the primary blue #1a5fb4 6.5:1); the browser tests measure them on the rendered pages.
const STYLE = `*{box-sizing:border-box} body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b;background:#fff;overflow-wrap:anywhere}
h1{font-size:1.4rem} label{display:block;margin:.75rem 0 .25rem} input[type=email],input[type=password]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1.25rem;margin:1rem .5rem 0 0;cursor:pointer;border-radius:4px;border:1px solid #1a5fb4;background:#fff;color:#1a5fb4}
button.primary{background:#1a5fb4;color:#fff;font-weight:600} button.link{border:0;padding:0;margin:0;background:none;text-decoration:underline}
.provider{color:#555;margin:0 0 -.5rem;font-size:.95rem} .provider span{white-space:nowrap} .error{color:#a40000;font-weight:600} .account{margin-top:1.5rem;color:#555} details{margin-top:1.5rem;color:#555} code{font-size:.9em}
fieldset{border:1px solid #ccc;padding:.5rem 1rem;margin:0} legend{float:left;width:100%;padding:.5rem 0 0;font-weight:600} legend+*{clear:both} .scope{margin:.5rem 0} .scope label{display:inline} .scope small{display:block;color:#555;margin-left:1.6rem} fieldset+fieldset{margin-top:.75rem} .wallet ul{margin:.5rem 0;padding-left:1.2rem} .wallet small{display:block;color:#555;margin-bottom:.5rem}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}`;

/** The page's one inline style (the shared one, and a page's own `extra`), allowed by hash: no script, no third-party content, no framing. */
const styleHash = (extra: string) =>
  `'sha256-${createHash('sha256')
    .update(STYLE + extra)
    .digest('base64')}'`;

/**
 * `script`: the URL of the one script file a page may run (the passkey pages' own, from this
 * origin), which then may call this origin's API; without it, a page runs no script at all.
 */
export function pageCsp(formTargets: string[] = [], extraStyle = '', script?: string): string {
  return [
    `default-src 'none'`,
    `style-src ${styleHash(extraStyle)}`,
    ...(script ? [`script-src ${script}`, `connect-src 'self'`] : []),
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    `frame-ancestors 'none'`,
    `base-uri 'none'`,
  ].join('; ');
}

/** The identity provider the person signs in to: its name (IDP_DISPLAY_NAME, when set) and the host they can check in the address bar. */
export interface Provider {
  name?: string | undefined;
  host: string;
}

/** Whose account a page is about, above its heading: every hosted page says it, refusals and sign-out included. */
export function accountHeader(lang: Locale, provider: Provider): string {
  return `<p class="provider">${escapeHtml(pageTexts(lang).providerLine(provider.name))} · <span>${escapeHtml(provider.host)}</span></p>`;
}

/** `extraStyle`: a page's own rules after the shared ones; send the page with pageCsp(…, extraStyle). */
export function layout(title: string, body: string, lang: Locale = 'en', extraStyle = ''): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}${extraStyle}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

/**
 * A refused request, for the person in front of it: what happened and what to do, in their
 * language; the technical reason, when there is one, only folded away for the app's developers.
 */
export function renderError(message: string, provider: Provider, lang: Locale = 'en', detail?: string): string {
  const t = pageTexts(lang);
  return layout(
    t.refusedTitle,
    `${accountHeader(lang, provider)}
<h1>${escapeHtml(t.refusedHeading)}</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
<p>${escapeHtml(t.nextStep)}</p>${detail ? `\n<details><summary>${escapeHtml(t.detailsForDevelopers)}</summary><p><code>${escapeHtml(detail)}</code></p></details>` : ''}`,
    lang,
  );
}

// Referrer-Policy same-origin, not the no-referrer every other answer has: under no-referrer a
// browser sends `Origin: null` with the page's form posts, and they could not prove they come
// from this page (fromOwnPage). Nothing leaves for other sites either way.
export function sendPage(res: Response, status: number, html: string, formTargets: string[] = [], script?: string) {
  res
    .status(status)
    .set({ 'Content-Security-Policy': pageCsp(formTargets, '', script), 'Referrer-Policy': 'same-origin' })
    .type('html')
    .send(html);
}
