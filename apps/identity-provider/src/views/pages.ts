/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

import { createHash } from 'node:crypto';
import { type Locale, messages } from './locales/index.js';

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
h1{font-size:1.4rem} label{display:block;margin:.75rem 0 .25rem} input[type=email],input[type=password]{width:100%;padding:.5rem;font:inherit}
button{font:inherit;padding:.5rem 1.25rem;margin:1rem .5rem 0 0;cursor:pointer} .error{color:#a40000;font-weight:600}
fieldset{border:1px solid #ccc;padding:.5rem 1rem} .scope{margin:.5rem 0} .scope label{display:inline} .scope small{display:block;color:#555;margin-left:1.6rem}
:focus-visible{outline:3px solid #1a5fb4;outline-offset:2px}`;

/** The page's one inline style, allowed by hash: no script, no third-party content, no framing. */
const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

export function pageCsp(formTargets: string[] = []): string {
  return [
    `default-src 'none'`,
    `style-src ${STYLE_HASH}`,
    `form-action 'self' ${formTargets.join(' ')}`.trim(),
    `frame-ancestors 'none'`,
    `base-uri 'none'`,
  ].join('; ');
}

export function layout(title: string, body: string, lang: Locale = 'en'): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}

export function renderError(message: string, lang: Locale = 'en'): string {
  const t = messages(lang);
  return layout(t.refusedTitle, `<h1>${escapeHtml(t.refusedHeading)}</h1>\n<p class="error" role="alert">${escapeHtml(message)}</p>`, lang);
}
