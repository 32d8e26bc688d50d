import type { PasskeyView } from '@svc/schemas';
import { passkeyScriptTag } from '../passkeys/page-script.js';
import { passkeySignInBlock } from '../passkeys/sign-in/sign-in-block.js';
import type { Locale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { accountHeader, escapeHtml as e, layout, type Provider } from '../views/pages.js';

/** The account page's own rules, after the shared ones (sent with pageCsp(…, ACCOUNT_STYLE)). */
export const ACCOUNT_STYLE = `[hidden]{display:none!important} input[type=text]{width:100%;padding:.5rem;font:inherit} h2{font-size:1.15rem;margin-top:2rem}
ul.passkeys{list-style:none;padding:0;margin:1rem 0} ul.passkeys li{border-top:1px solid #ccc;padding:.75rem 0} .meta{display:block;color:#555;font-size:.95rem}
ul.passkeys form{margin:.25rem 0} ul.passkeys button{margin-top:.5rem}`;

/** Without a session: sign in first, with a passkey or the password, and come back here. */
export function renderAccountSignIn(input: { provider: Provider; csrf: string; lang: Locale; error?: string | undefined; email?: string | undefined }): string {
  const t = pageTexts(input.lang);
  return layout(
    t.accountTitle,
    `${accountHeader(input.lang, input.provider)}
<h1>${e(t.accountSignInHeading)}</h1>
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
${passkeySignInBlock(t, '/account')}
<form method="post" action="/account/sign-in">
<input type="hidden" name="csrf_token" value="${e(input.csrf)}">
<label for="email">${e(t.email)}</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required value="${e(input.email ?? '')}">
<label for="password">${e(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit" class="primary">${e(t.signIn)}</button>
</form>
${passkeyScriptTag()}`,
    input.lang,
    ACCOUNT_STYLE,
  );
}

const day = (iso: string, lang: Locale) => new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(iso));

function passkeyItem(p: PasskeyView, i: number, lang: Locale): string {
  const t = pageTexts(lang);
  const meta = [t.created(day(p.created_at, lang)), t.lastUsed(p.last_used_at ? day(p.last_used_at, lang) : undefined), p.synced ? t.synced : t.deviceBound];
  return `<li>
<strong>${e(p.name)}</strong><span class="meta">${e(meta.join(' · '))}</span>
<form data-passkey-rename data-id="${e(p.id)}" hidden>
<label for="rename-${i}">${e(t.renamePasskey(p.name))}</label>
<input id="rename-${i}" name="name" type="text" maxlength="64" required value="${e(p.name)}">
<button type="submit">${e(t.rename)}</button>
</form>
<form data-passkey-delete data-id="${e(p.id)}" hidden><button type="submit">${e(t.deletePasskey(p.name))}</button></form>
</li>`;
}

/** The signed-in person's passkeys: each with when it was added and last used and whether it is synced; add, rename, delete (assets/passkeys.js, through /v2/me/passkeys). */
export function renderAccount(input: { provider: Provider; email: string; csrf: string; passkeys: PasskeyView[]; lang: Locale }): string {
  const t = pageTexts(input.lang);
  const list = input.passkeys.length
    ? `<ul class="passkeys">${input.passkeys.map((p, i) => passkeyItem(p, i, input.lang)).join('\n')}</ul>`
    : `<p>${e(t.noPasskeys)}</p>`;
  return layout(
    t.accountTitle,
    `${accountHeader(input.lang, input.provider)}
<h1>${e(t.accountHeading(input.email))}</h1>
<h2>${e(t.passkeysHeading)}</h2>
<p>${e(t.passkeysIntro)}</p>
<div data-passkey-account data-csrf="${e(input.csrf)}" data-text-failed="${e(t.passkeyFailed)}" data-text-last="${e(t.lastSignInMethod)}">
<p class="error" role="alert" data-passkey-error hidden></p>
${list}
<p class="meta" data-passkey-needs-script>${e(t.passkeysNeedScript)}</p>
<form data-passkey-add hidden>
<label for="passkey-name">${e(t.passkeyName)}</label>
<input id="passkey-name" name="name" type="text" maxlength="64" autocomplete="off">
<button type="submit" class="primary">${e(t.addPasskey)}</button>
</form>
</div>
${passkeyScriptTag()}`,
    input.lang,
    ACCOUNT_STYLE,
  );
}
