import type { WalletOffer } from './wallet-offer.js';
import type { ProofView, WalletProof } from './wallet-proof.js';

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const e = (value: unknown) => String(value).replace(/[&<>"']/g, (c) => escapes[c]!);
const show = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));
// A phone's column is narrow: names break after their underscores, never inside a word.
const breakable = (name: string) => e(name).replaceAll('_', '_<wbr>');
const ISO_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?Z$/;
/**
 * A value as shown: an ISO timestamp as a readable UTC time that never breaks, a list of names
 * (scopes) as those names, anything else as code.
 */
function valueHtml(value: unknown): string {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.map((v) => `<code>${e(v)}</code>`).join(' ');
  const time = typeof value === 'string' ? ISO_TIME.exec(value) : null;
  return time ? `<time datetime="${e(value)}">${time[1]} ${time[2]} UTC</time>` : `<code>${e(show(value))}</code>`;
}

export const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#f6f7f9}
main{max-width:46rem;margin:0 auto;padding:1rem}
h1{font-size:1.5rem;margin:.5rem 0 1rem}h2{font-size:1.1rem;margin:0 0 .5rem}
section{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:1rem;margin:0 0 1rem;overflow-x:auto}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e3e6ea;vertical-align:top;overflow-wrap:anywhere}
th{font-weight:600;width:40%;overflow-wrap:normal}code{font:14px ui-monospace,monospace;overflow-wrap:anywhere}time{white-space:nowrap}
@media (max-width:36rem){table.stack tr:first-child{display:none}table.stack tr{display:block;border-bottom:1px solid #e3e6ea;padding:.3rem 0}
table.stack td{display:block;border:0;padding:.1rem .5rem}table.stack td::before{content:attr(data-label) ": ";font-weight:600}
table.pairs tr{display:block;border-bottom:1px solid #e3e6ea;padding:.3rem 0}table.pairs th,table.pairs td{display:block;width:auto;border:0;padding:.1rem .5rem}}
.primary,.secondary{display:inline-block;font:inherit;padding:.6rem 1.1rem;border-radius:6px;cursor:pointer;text-decoration:none;border:1px solid #1d4ed8}
.primary{background:#1d4ed8;color:#fff}.secondary{background:#fff;color:#1d4ed8}
form{display:inline}.actions{display:flex;gap:.75rem;flex-wrap:wrap}
.ok{border-color:#15803d;background:#f0fdf4}.error{border-color:#b91c1c;background:#fef2f2}
small{color:#4b5563}.qr svg{width:min(16rem,100%);height:auto;display:block}.code{font:1.4rem ui-monospace,monospace;letter-spacing:.15em}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<link rel="stylesheet" href="/app.css">
</head>
<body><main>
<h1>${e(title)}</h1>
${body}
</main></body>
</html>`;
}

export type Notice = { kind: 'ok' | 'error'; text: string };
const noticeHtml = (notice?: Notice) =>
  notice ? `<section class="${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}"><p>${e(notice.text)}</p></section>` : '';

export interface ReceivedEvent {
  id: string;
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
  received_at: string;
}

/** What the identity provider pushed to this app (verified with the SDK's verifyWebhook). */
function eventsHtml(events: ReceivedEvent[]): string {
  const list = events.length
    ? `<table class="stack"><tr><th scope="col">event</th><th scope="col">about</th><th scope="col">happened</th></tr>${events
        .map(
          (ev) =>
            `<tr><td data-label="event"><code>${breakable(ev.type)}</code></td><td data-label="about">${valueHtml(
              ev.data.presets
                ? `${String(ev.data.authorization_id ?? '')} (${(ev.data.presets as string[]).join(', ')})`
                : (ev.data.authorization_id ?? ev.data.credential_id ?? ''),
            )}</td><td data-label="happened">${valueHtml(ev.timestamp)}</td></tr>`,
        )
        .join('')}</table>`
    : '<p>None yet: approve or revoke access, and the identity provider tells this app here.</p>';
  return `<section id="webhooks" aria-labelledby="webhooks-title"><h2 id="webhooks-title">Webhook events</h2>
<p><small><code>POST /webhooks</code>: what the identity provider pushed to this app, each signature checked with the SDK’s <code>verifyWebhook</code>.</small></p>${list}</section>`;
}

/** The answer so far, as the page's script also writes it (text in a table: status, then the preset or the failed check). */
function proofResultHtml(view: ProofView): string {
  const pairs: [string, string][] =
    view.status === 'verified'
      ? [
          ['status', 'verified'],
          [view.preset, JSON.stringify(view.value)],
          ['issuer', view.issuer],
        ]
      : view.status === 'failed'
        ? [
            ['status', 'failed'],
            ['failed check', view.check],
            ['why', view.message],
          ]
        : view.status === 'pending' && view.refused
          ? [
              ['status', 'pending: the last answer was refused, a wallet may answer again'],
              ['failed check', view.refused.check],
              ['why', view.refused.message],
            ]
          : [['status', view.status === 'expired' ? 'expired: ask again' : 'pending: waiting for a wallet']];
  return `<table class="pairs">${pairs.map(([k, v]) => `<tr><th scope="row">${e(k)}</th><td><code>${e(v)}</code></td></tr>`).join('')}</table>`;
}

/**
 * The visitor proves their age with a wallet: a QR code for a phone, or a wallet in this browser
 * through the Digital Credentials API (the button; /proof.js does the rest).
 */
function proofHtml(csrf: string, proof: WalletProof | undefined): string {
  const about = `<p><small><code>POST /presentation-requests</code> at the credential issuer (OpenID4VP 1.0): your wallet shows <code>age_over_18</code>, and nothing else, to this app.</small></p>`;
  const ask = (label: string) =>
    `<form method="post" action="/proof"><input type="hidden" name="csrf" value="${e(csrf)}"><button class="${proof ? 'secondary' : 'primary'}" type="submit">${label}</button></form>`;
  const body = proof
    ? `<div class="qr">${proof.qrSvg}</div>
<p>Scan it with an OpenID4VP wallet, or <a href="${e(proof.link)}">open it in the wallet on this phone</a>. The request works once, until ${valueHtml(proof.expiresAt)}.</p>
<div class="actions"><button class="primary" type="button" id="proof-dc-api" data-request="${e(JSON.stringify(proof.dcApi))}">Use a wallet in this browser</button>${ask('Ask again')}</div>
<p id="proof-alert" role="alert" hidden></p>
<div id="proof-result" role="status" aria-live="polite">${proofResultHtml(proof.outcome ?? { status: 'pending' })}</div>
<script src="/proof.js"></script>`
    : ask('Prove with your wallet');
  const status = proof ? (proof.outcome?.status ?? 'pending') : 'none';
  return `<section id="proof" aria-labelledby="proof-title" data-csrf="${e(csrf)}" data-status="${status}"><h2 id="proof-title">Prove with your wallet</h2>
${about}${body}</section>`;
}

/** Present when the app has a credential issuer token: the visitor's session, with its CSRF token and its open request. */
export interface ProofSection {
  csrf: string;
  current: WalletProof | undefined;
}

export function signedOutPage(input: { issuer: string; notice?: Notice; events?: ReceivedEvent[]; proof?: ProofSection }): string {
  return layout(
    'Demo relying party',
    `${noticeHtml(input.notice)}<section>
<p>An app that asks the identity provider, with your consent, for what it needs to know about you:
whether you are over 18, your nationality, whether your identity check passed.</p>
<p>Signing in sends you to the identity provider at <code>${e(input.issuer)}</code>. Sign in there as the demo user
<code>alice@demo.example</code> (the password is in <code>.data/demo.json</code>, and in the banner of the <code>npm start</code> that made the demo data),
approve, and you come back here.</p>
<p><a class="primary" href="/login">Sign in with the identity provider</a></p>
</section>${input.proof ? proofHtml(input.proof.csrf, input.proof.current) : ''}${input.events ? eventsHtml(input.events) : ''}`,
  );
}

export interface Dashboard {
  userInfo: Result<Record<string, unknown>>;
  presets: Result<{ name: string; value?: unknown; status?: string; error?: string }[]>;
  query: Result<{ description: string; answer: unknown }>;
  changes: Result<{ id: string; status: string; updated_at: string }[]>;
  token: { scope: string; expiresIn: number };
  csrf: string;
  notice?: Notice;
  events?: ReceivedEvent[];
  /** Absent: the app has no credential issuer token, and offers nothing. */
  wallet?: { offer: WalletOffer | undefined };
  /** Absent: the app has no credential issuer token, and asks no wallet. */
  proof?: ProofSection;
}
export type Result<T> = { ok: true; value: T } | { ok: false; error: string };

const rows = (entries: [string, unknown][]) => entries.map(([k, v]) => `<tr><th scope="row">${breakable(k)}</th><td>${valueHtml(v)}</td></tr>`).join('');
function sectionOf<T>(id: string, title: string, about: string, result: Result<T>, render: (value: T) => string): string {
  return `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${e(title)}</h2><p><small>${about}</small></p>${
    result.ok ? render(result.value) : `<p role="alert">${e(result.error)}</p>`
  }</section>`;
}

/** The person takes the age this app read into their own wallet: a QR code and a code to type. */
function walletHtml(csrf: string, offer: WalletOffer | undefined): string {
  const body = offer
    ? `<div class="qr">${offer.qrSvg}</div>
<p>Scan it with an OpenID4VCI wallet, and type this code when it asks: <strong class="code">${e(offer.txCode ?? '')}</strong></p>
<p><small>On this phone? <a href="${e(offer.link)}">Open it in your wallet</a>. The offer works once, until ${valueHtml(offer.expiresAt)}.</small></p>`
    : `<form method="post" action="/wallet-offer"><input type="hidden" name="csrf" value="${e(csrf)}"><button class="primary" type="submit">Put it in my wallet</button></form>`;
  return `<section id="wallet" aria-labelledby="wallet-title"><h2 id="wallet-title">Your age, in your wallet</h2>
<p><small><code>POST /credential-offers</code> at the credential issuer: an SD-JWT VC of <code>age_over_18</code> for your wallet, which you can show anyone without this app.</small></p>
${body}</section>`;
}

export function dashboardPage(d: Dashboard): string {
  return layout(
    'Demo relying party: signed in',
    `${noticeHtml(d.notice)}
${sectionOf('userinfo', 'User info', '<code>GET /v2/userinfo</code>: the subject is pairwise, the same user gets another one in another app.', d.userInfo, (u) => `<table class="pairs">${rows(Object.entries(u))}</table>`)}
${sectionOf(
  'presets',
  'Presets',
  '<code>POST /v2/presets/batch</code>: named data items, each with its verification status.',
  d.presets,
  (list) =>
    `<table><tr><th scope="col">preset</th><th scope="col">value</th></tr>${list
      .map(
        (p) =>
          `<tr><td><code>${breakable(p.name)}</code></td><td>${p.error ? e(p.error) : `<code>${e(show(p.value))}</code> <small>${e(p.status ?? '')}</small>`}</td></tr>`,
      )
      .join('')}</table>`,
)}
${sectionOf('query', 'A query', '<code>POST /v2/queries/evaluate</code>: a yes or no over the claims; the app never sees the data behind it.', d.query, (q) => `<table class="pairs">${rows([[q.description, q.answer]])}</table>`)}
${sectionOf(
  'changes',
  'The change list',
  '<code>GET /v2/authorizations</code>: this app’s authorizations changed in the last hour (client authentication, no user token).',
  d.changes,
  (items) =>
    items.length
      ? `<table class="stack"><tr><th scope="col">authorization</th><th scope="col">status</th><th scope="col">updated</th></tr>${items
          .map(
            (i) =>
              `<tr><td data-label="authorization"><code>${e(i.id)}</code></td><td data-label="status">${e(i.status)}</td><td data-label="updated">${valueHtml(i.updated_at)}</td></tr>`,
          )
          .join('')}</table>`
      : '<p>No changes.</p>',
)}
<section id="token" aria-labelledby="token-title"><h2 id="token-title">Access</h2>
<p>Scopes granted: <code>${e(d.token.scope)}</code>; the access token expires in ${e(Math.max(0, d.token.expiresIn))} s (the app refreshes it).</p>
<div class="actions">
<form method="post" action="/revoke"><input type="hidden" name="csrf" value="${e(d.csrf)}"><button class="primary" type="submit">Revoke access</button></form>
<form method="post" action="/sign-out"><input type="hidden" name="csrf" value="${e(d.csrf)}"><button class="secondary" type="submit">Sign out of this app</button></form>
</div>
<p><small>Revoking ends the authorization at the identity provider (<code>POST /oauth/revoke</code>, the refresh token with its access tokens); signing out only forgets the tokens here.</small></p>
</section>${d.wallet ? walletHtml(d.csrf, d.wallet.offer) : ''}${d.proof ? proofHtml(d.proof.csrf, d.proof.current) : ''}${d.events ? eventsHtml(d.events) : ''}`,
  );
}
