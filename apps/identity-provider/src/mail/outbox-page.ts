import { escapeHtml as e, layout } from '../views/pages.js';
import type { KeptMail } from '@svc/schemas';

export const OUTBOX_STYLE = ` body{max-width:48rem} article{border-top:1px solid #ccc;padding:.5rem 0} pre{white-space:pre-wrap;font:inherit;margin:.5rem 0} .meta{color:#555;font-size:.95rem}`;

const LINK = /(https?:\/\/[^\s<>"]+)/g;

/** A mail's text with its links made followable (each escaped; nothing else becomes markup). */
function withLinks(text: string): string {
  return text
    .split(LINK)
    .map((part, i) => (i % 2 === 1 ? `<a href="${e(part)}">${e(part)}</a>` : e(part)))
    .join('');
}

/** The local outbox: what this deployment would have mailed, newest first. */
export function renderOutbox(mails: KeptMail[], to: string | undefined): string {
  const items = mails.length
    ? mails
        .map(
          (m) => `<article>
<h2>${e(m.subject)}</h2>
<p class="meta">To ${e(m.to)}, ${e(m.created_at)}</p>
<pre>${withLinks(m.text)}</pre>
</article>`,
        )
        .join('\n')
    : '<p>No mail yet.</p>';
  return layout(
    'Local outbox',
    `<h1>Local outbox${to ? ` for ${e(to)}` : ''}</h1>
<p class="meta">This deployment sends no mail (no SMTP_URL): what it would send is kept here, for a week. As JSON: <a href="/dev/outbox.json">/dev/outbox.json</a>.</p>
${items}`,
    'en',
    OUTBOX_STYLE,
  );
}
