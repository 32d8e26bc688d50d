/**
 * The developer console's pages, rendered on the server like the sign-in and consent pages: no
 * script, one hashed inline style, every form posting to this service with its CSRF token. Lists
 * are cards that stack on a phone; every secret is shown once, on a page of its own.
 */
import { ACR_VALUES, API_KEY_PERMISSIONS, SCOPES } from '@svc/schemas';
import { passkeyScriptTag } from '../passkeys/page-script.js';
import { passkeySignInBlock } from '../passkeys/sign-in/sign-in-block.js';
import { forgotPasswordLink } from '../password-reset/reset-pages.js';
import { type Locale, LOCALES } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { escapeHtml as e, layout } from '../views/pages.js';
import { button, cards, check, field, hidden, number, text, when } from './console-html.js';
import type { ConsoleTexts } from './texts/console-texts.js';
import { consoleTexts } from './texts/registry.js';
import { type ActionSummary, personActionsSection } from './sections/person-actions-section.js';
import { type WebhookSummary, webhooksSection } from './sections/webhooks-section.js';

export const CONSOLE_STYLE = `body{max-width:52rem}
header{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:baseline;justify-content:space-between}
.badge{display:inline-block;padding:.1rem .5rem;border-radius:4px;font-size:.9rem;font-weight:600;background:#fff3cd;color:#5c4300;border:1px solid #8a6d00}
.badge.production{background:#e6f0fb;color:#123f7a;border-color:#1a5fb4}
nav a{margin-right:1rem;white-space:nowrap} section{margin-top:2rem;border-top:1px solid #ccc}
ul.cards{list-style:none;padding:0} ul.cards li{border:1px solid #ccc;border-radius:4px;padding:.5rem .75rem;margin:.5rem 0}
.muted{color:#555;font-size:.95rem} .inline{display:inline} .inline button{margin:.25rem .5rem 0 0}
textarea,input[type=text],input[type=number],select{width:100%;padding:.5rem;font:inherit} textarea{min-height:4.5rem}
.check{display:block;margin:.25rem 0} .check label{display:inline;margin:0 0 0 .25rem}
.secret{font-family:ui-monospace,monospace;background:#f3f3f3;padding:.75rem;border:1px solid #ccc;user-select:all}
.lang a{margin-left:.5rem} code{overflow-wrap:anywhere} details{margin:.25rem 0}
pre.secret{white-space:pre-wrap;overflow-wrap:anywhere;user-select:text}`;

export interface ConsoleContext {
  lang: Locale;
  environment: 'production' | 'sandbox';
  /** The other environment's base URL, when known. */
  otherBaseUrl: string | undefined;
  provider: string;
  /** The announced origin, when the browser was just moved here from another address (toAnnouncedAddress). */
  movedTo?: string | undefined;
}

const problems = (t: ConsoleTexts, messages: string[]) =>
  messages.length ? `<div class="error" role="alert"><p>${e(t.problems)}</p><ul>${messages.map((m) => `<li>${e(m)}</li>`).join('')}</ul></div>` : '';

const badge = (t: ConsoleTexts, ctx: ConsoleContext) =>
  `<span class="badge ${ctx.environment}">${e(ctx.environment === 'sandbox' ? t.sandboxBadge : t.productionBadge)}</span>`;

const languages = (ctx: ConsoleContext) =>
  `<p class="lang muted">${LOCALES.map((l) => (l === ctx.lang ? `<strong>${l}</strong>` : `<a href="/console?lang=${l}" hreflang="${l}">${l}</a>`)).join('')}</p>`;

/** A choice of acr value (ACR_VALUES), or none. */
const acrSelect = (name: string, label: string, t: ConsoleTexts) =>
  field(
    name,
    label,
    `<select id="${name}" name="${name}"><option value="">${e(t.anySignIn)}</option>${ACR_VALUES.map((acr) => `<option value="${acr}">${e(t.acr[acr])}</option>`).join('')}</select>`,
  );

const moved = (t: ConsoleTexts, ctx: ConsoleContext) => (ctx.movedTo ? `<p class="muted" role="status">${e(t.movedHere(ctx.movedTo))}</p>` : '');

const page = (ctx: ConsoleContext, title: string, body: string) => layout(title, body, ctx.lang, CONSOLE_STYLE);

/** Sign-in and sign-up share this frame: the environment, then the form. */
export function renderEntry(
  ctx: ConsoleContext,
  input: { mode: 'sign-in' | 'sign-up'; csrf: string; error?: string | undefined; email?: string | undefined; signupOpen: boolean },
): string {
  const t = consoleTexts(ctx.lang);
  const signIn = input.mode === 'sign-in';
  // A passkey signs in as on the hosted sign-in page (the same script and API), then opens the console.
  const form = signIn
    ? `${passkeySignInBlock(pageTexts(ctx.lang), `/console?lang=${ctx.lang}`)}
<form method="post" action="/console/sign-in">${hidden('csrf_token', input.csrf)}
${field('email', t.email, `<input type="email" id="email" name="email" autocomplete="username webauthn" required value="${e(input.email ?? '')}">`)}
${field('password', t.password, '<input type="password" id="password" name="password" autocomplete="current-password" required>')}
<button class="primary">${e(t.signIn)}</button></form>
${forgotPasswordLink(ctx.lang, 'console')}
<p><a href="/console/signup?lang=${ctx.lang}">${e(input.signupOpen ? t.noAccount : t.haveInvitation)}</a></p>
${passkeyScriptTag()}`
    : `<form method="post" action="/console/signup">${hidden('csrf_token', input.csrf)}
${field('email', t.email, `<input type="email" id="email" name="email" autocomplete="username" required value="${e(input.email ?? '')}">`)}
${field('password', t.password, '<input type="password" id="password" name="password" autocomplete="new-password" minlength="8" required>')}
${text('organization_name', t.organizationName, 'maxlength="100"')}
${text('invitation_token', 'Invitation token (optional)', 'autocomplete="off"')}
<button class="primary">${e(t.signUp)}</button></form>
<p><a href="/console?lang=${ctx.lang}">${e(t.haveAccount)}</a></p>`;
  return page(
    ctx,
    t.title,
    `<header><p class="provider">${e(ctx.provider)}</p>${badge(t, ctx)}</header>
<h1>${e(signIn ? t.signInHeading : t.signUpHeading)}</h1>
${moved(t, ctx)}
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
${form}
${languages(ctx)}`,
  );
}

/** After signing up: the link is in the mail, nothing exists yet. */
export function renderCheckMail(ctx: ConsoleContext, input: { email: string; minutes: number }): string {
  const t = consoleTexts(ctx.lang);
  return page(
    ctx,
    t.title,
    `<header><p class="provider">${e(ctx.provider)}</p>${badge(t, ctx)}</header>
<h1>${e(t.checkMailHeading)}</h1>
<p role="status">${e(t.checkMail(input.email, input.minutes))}</p>
<p class="muted">${e(t.checkMailElse)}</p>
<p><a href="/console?lang=${ctx.lang}">${e(t.haveAccount)}</a></p>`,
  );
}

/**
 * Where a sign-up link leads: opening it makes nothing (mail scanners open links too); the person
 * posts the form, with the password chosen at sign-up.
 */
export function renderConfirmSignUp(ctx: ConsoleContext, input: { csrf: string; token: string; email: string; error?: string | undefined }): string {
  const t = consoleTexts(ctx.lang);
  return page(
    ctx,
    t.title,
    `<header><p class="provider">${e(ctx.provider)}</p>${badge(t, ctx)}</header>
<h1>${e(t.confirmHeading)}</h1>
<p>${e(t.confirmIntro(input.email))}</p>
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
<form method="post" action="/console/signup/confirm?lang=${ctx.lang}">${hidden('csrf_token', input.csrf)}${hidden('token', input.token)}
<input type="email" name="email" autocomplete="username" value="${e(input.email)}" hidden>
${field('password', t.confirmPassword, '<input type="password" id="password" name="password" autocomplete="current-password" required>')}
<button class="primary">${e(t.confirm)}</button></form>`,
  );
}

/** A signed-in person who belongs to no organization: accept an invitation, or sign out. */
export function renderNoOrganization(ctx: ConsoleContext, input: { csrf: string; email: string; error?: string | undefined }): string {
  const t = consoleTexts(ctx.lang);
  return page(
    ctx,
    t.title,
    `<header><p class="provider">${e(ctx.provider)} · ${e(input.email)}</p>${badge(t, ctx)}</header>
<h1>${e(t.title)}</h1>
<p>${e(t.notADeveloper)}</p>
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
<form method="post" action="/console/invitations/accept">${hidden('csrf_token', input.csrf)}
${text('invitation_token', 'Invitation token', 'required autocomplete="off"')}
<button class="primary">Accept</button></form>
${button('/console/sign-out', input.csrf, t.signOut)}`,
  );
}

export interface Dashboard {
  csrf: string;
  email: string;
  organization: { name: string; role: string; founderUserId: string | null };
  applications: {
    client_id: string;
    name: string;
    type: string;
    redirect_uris: string[];
    scopes: string[];
    status: string;
    token_endpoint_auth_method: string;
  }[];
  apiKeys: {
    id: string;
    name: string | null;
    prefix: string;
    permissions: string[];
    hourly_limit: number;
    burst_limit: number;
    status: string;
    last_used_at: string | null;
    requests_this_hour: number;
  }[];
  members: { email: string; role: string; status: string; user_id: string | null }[];
  tokens: { id: string; name: string; prefix: string; expires_at: string | null; last_used_at: string | null }[];
  testUsers?: { user_id: string; email: string; palm_verified: boolean; presets: Record<string, string> }[];
  webhooks: WebhookSummary[];
  actions: ActionSummary[];
  changes: { application: string; status: string; updated_at: string; user: string }[];
  problems: string[];
}

export function renderDashboard(ctx: ConsoleContext, d: Dashboard): string {
  const t = consoleTexts(ctx.lang);
  const list = <T>(items: T[], item: (x: T) => string) => cards(items, item, t.none);
  const owner = d.organization.role === 'owner';
  const sections: [string, string, string][] = [
    [
      'applications',
      t.applications,
      `${list(
        d.applications,
        (
          a,
        ) => `<strong>${e(a.name)}</strong> <span class="muted">${e(a.type)} · ${e(a.token_endpoint_auth_method)}${a.status === 'revoked' ? ` · ${e(t.revoked)}` : ''}</span>
<div><code>${e(a.client_id)}</code></div><div class="muted">${a.redirect_uris.map(e).join('<br>')}</div><div class="muted">${e(a.scopes.join(' '))}</div>
${a.status === 'active' ? `${button(`/console/applications/${encodeURIComponent(a.client_id)}/try`, d.csrf, t.trySignIn, true)}${a.token_endpoint_auth_method.startsWith('client_secret') ? button(`/console/applications/${encodeURIComponent(a.client_id)}/rotate-secret`, d.csrf, t.rotateSecret) : ''}${button(`/console/applications/${encodeURIComponent(a.client_id)}/revoke`, d.csrf, t.revoke)}` : ''}`,
      )}
<form method="post" action="/console/applications">${hidden('csrf_token', d.csrf)}
${text('app-name', t.name, 'required maxlength="100"', 'name')}
${field('redirect_uris', `${t.redirectUris} (${t.redirectUrisHint})`, '<textarea id="redirect_uris" name="redirect_uris" required></textarea>')}
<fieldset><legend>${e(t.scopes)}</legend>${SCOPES.map((s) => check('scopes', s, s, s === 'openid' || s === 'identity:read')).join('')}</fieldset>
<fieldset><legend>${e(t.type)}</legend>
<span class="check"><input type="radio" id="type-confidential" name="type" value="confidential" checked><label for="type-confidential">${e(t.confidential)}</label></span>
<span class="check"><input type="radio" id="type-public" name="type" value="public"><label for="type-public">${e(t.public)}</label></span></fieldset>
${field('token_endpoint_auth_method', t.authMethod, `<select id="token_endpoint_auth_method" name="token_endpoint_auth_method">${['client_secret_basic', 'client_secret_post', 'private_key_jwt', 'self_signed_tls_client_auth'].map((m) => `<option value="${m}">${m}</option>`).join('')}</select>`)}
${field('jwks', t.jwks, '<textarea id="jwks" name="jwks" placeholder=\'{"keys": [{"kty": "EC", "crv": "P-256", "x": "…", "y": "…"}]}\'></textarea>')}
${check('require_dpop', 'true', t.requireDpop)}${check('requires_palm_verification', 'true', t.requiresPalm)}${check('fapi_profile', 'fapi2', t.fapiProfile)}
${number('preset_cache_ttl_seconds', t.presetWindow, 'min="60" max="2592000" placeholder="3600"')}
${acrSelect('default_acr_values', t.defaultAcr, t)}${number('default_max_age', t.defaultMaxAge, 'min="0" placeholder="—"')}
${acrSelect('sensitive_data_acr', t.sensitiveDataAcr, t)}${number('sensitive_data_max_age', t.sensitiveDataMaxAge, 'min="0" placeholder="—"')}
<button class="primary">${e(t.register)}</button></form>`,
    ],
    [
      'api-keys',
      t.apiKeys,
      `${list(
        d.apiKeys,
        (
          k,
        ) => `<strong>${e(k.name ?? k.prefix)}</strong> <code>${e(k.prefix)}</code> <span class="muted">${e(k.permissions.join(', '))}${k.status === 'disabled' ? ` · ${e(t.disabled)}` : ''}</span>
<div class="muted">${e(t.usedThisHour(k.requests_this_hour, k.hourly_limit))} · ${e(t.limits(k.hourly_limit, k.burst_limit))} · ${k.last_used_at ? `${e(t.lastUsed(''))}${when(k.last_used_at)}` : e(t.neverUsed)}</div>
${k.status === 'active' ? button(`/console/api-keys/${k.id}/disable`, d.csrf, t.disable) : ''}`,
      )}
<form method="post" action="/console/api-keys">${hidden('csrf_token', d.csrf)}
${text('key-name', t.name, 'maxlength="100"', 'name')}
<fieldset><legend>${e(t.permissions)}</legend>${API_KEY_PERMISSIONS.map((p, i) => check('permissions', p, p, i === 0)).join('')}</fieldset>
${number('hourly_limit', t.hourlyLimit, 'min="1" max="10000000" placeholder="1000"')}${number('burst_limit', t.burstLimit, 'min="1" max="100000" placeholder="10"')}
<button class="primary">${e(t.createKey)}</button></form>`,
    ],
    [
      'members',
      t.members,
      `${list(
        d.members,
        (m) => `${e(m.email)} <span class="muted">${e(m.role)}${m.status === 'invited' ? ` · ${e(t.invited)}` : ''}</span>
${m.user_id && m.user_id !== d.organization.founderUserId && (owner || m.email === d.email) && m.status === 'member' ? button(`/console/members/${m.user_id}/remove`, d.csrf, t.delete) : ''}`,
      )}
${
  owner
    ? `<form method="post" action="/console/members">${hidden('csrf_token', d.csrf)}
${field('member-email', t.email, '<input type="email" id="member-email" name="email" required>')}
${field('member-role', t.role, '<select id="member-role" name="role"><option value="developer">developer</option><option value="owner">owner</option></select>')}
<button class="primary">${e(t.invite)}</button></form>`
    : ''
}`,
    ],
    [
      'tokens',
      t.tokens,
      `${list(
        d.tokens,
        (k) => `<strong>${e(k.name)}</strong> <code>${e(k.prefix)}…</code> <span class="muted">${k.expires_at ? `→ ${when(k.expires_at)}` : ''}</span>
${button(`/console/personal-access-tokens/${k.id}/revoke`, d.csrf, t.revoke)}`,
      )}
<form method="post" action="/console/personal-access-tokens">${hidden('csrf_token', d.csrf)}
${text('token-name', t.personalAccessToken, 'required maxlength="100"', 'name')}
${number('expires_in_days', t.expiresInDays, 'min="1" max="365" value="90"')}
<button class="primary">${e(t.create)}</button></form>
<form method="post" action="/console/initial-access-tokens">${hidden('csrf_token', d.csrf)}
${number('expires_in_hours', `${t.initialAccessToken}: ${t.expiresInHours}`, 'min="1" max="720" value="24"')}
<button>${e(t.create)}</button></form>`,
    ],
  ];
  sections.push(['webhooks', t.webhooks, webhooksSection(ctx.lang, d.csrf, d.webhooks)]);
  sections.push(['actions', t.actions, personActionsSection(ctx.lang, d.csrf, ctx.environment === 'sandbox', d.actions)]);
  if (d.testUsers)
    sections.push([
      'test-users',
      t.testUsers,
      `${list(
        d.testUsers,
        (u) => `${e(u.email)} <span class="muted">${u.palm_verified ? e(t.palmVerified) : ''}</span>
<div class="muted">${Object.entries(u.presets)
          .map(([name, status]) => `${e(name)}${status === 'valid' ? '' : ` (${e(status)})`}`)
          .join(', ')}</div><div><code>${e(u.user_id)}</code></div>
${button(`/console/test-users/${u.user_id}/delete`, d.csrf, t.delete)}`,
      )}
<form method="post" action="/console/test-users">${hidden('csrf_token', d.csrf)}
${check('palm_verified', 'true', t.palmVerified, true)}
${text('wallet_address', t.walletAddress, 'autocomplete="off"')}
${field('presets', t.presetsJson, '<textarea id="presets" name="presets">{"date_of_birth": "1990-04-12", "kyc_passed": true}</textarea>')}
${field('statuses', t.statusesJson, '<textarea id="statuses" name="statuses">{}</textarea>')}
<button class="primary">${e(t.createTestUser)}</button></form>`,
    ]);
  sections.push([
    'changes',
    t.changeList,
    list(d.changes, (c) => `${e(c.application)} <span class="muted">${e(c.status)} · ${when(c.updated_at)}</span><div><code>${e(c.user)}</code></div>`),
  ]);
  return page(
    ctx,
    t.title,
    `<header><p class="provider">${e(ctx.provider)} · ${e(d.email)}</p>${badge(t, ctx)}</header>
<h1>${e(t.title)}</h1>
${moved(t, ctx)}
<p>${e(t.organization(d.organization.name, d.organization.role))}</p>
${ctx.environment === 'sandbox' && ctx.otherBaseUrl ? `<p class="muted">${e(t.environmentNote(ctx.otherBaseUrl))}</p>` : ''}
${problems(t, d.problems)}
<nav>${sections.map(([id, title]) => `<a href="#${id}">${e(title)}</a>`).join(' ')}</nav>
${sections.map(([id, title, body]) => `<section id="${id}"><h2>${e(title)}</h2>${body}</section>`).join('\n')}
${button('/console/sign-out', d.csrf, t.signOut)}
${languages(ctx)}`,
  );
}

/** A secret shown this once: a client secret, a key, a token, an invitation, a test user's password. */
/**
 * A value shown once. `title` names the page when it is more than a secret to copy (a test user);
 * `label` says what the value is when "secret" would mislead (a password).
 */
export interface SecretPage {
  heading: string;
  lines: [string, string][];
  secret: string;
  note?: string;
  title?: string;
  label?: string;
}
export function renderSecret(ctx: ConsoleContext, input: SecretPage): string {
  const t = consoleTexts(ctx.lang);
  return page(
    ctx,
    input.title ?? t.secretHeading,
    `<header><p class="provider">${e(ctx.provider)}</p>${badge(t, ctx)}</header>
<h1>${e(input.heading)}</h1>
${input.lines.map(([label, value]) => `<p>${e(label)}: <code>${e(value)}</code></p>`).join('')}
<h2>${e(input.label ?? t.secretHeading)}</h2>
<p class="secret" id="secret">${e(input.secret)}</p>
<p class="error">${e(input.note ?? t.secretOnce)}</p>
<p><a href="/console?lang=${ctx.lang}">${e(t.back)}</a></p>`,
  );
}

/** A console page of another capability's making (a try's result): the console's frame around its body. */
export function renderFramed(ctx: ConsoleContext, title: string, body: string): string {
  const t = consoleTexts(ctx.lang);
  return page(ctx, title, `<header><p class="provider">${e(ctx.provider)}</p>${badge(t, ctx)}</header>\n${body}`);
}
