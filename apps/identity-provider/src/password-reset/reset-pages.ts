/**
 * The pages of a password reset, rendered on the server like the sign-in page: no script, the
 * shared style and a few rules of their own, every form posting here with its login-CSRF token.
 */
import type { Locale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { accountHeader, escapeHtml as e, layout, type Provider } from '../views/pages.js';

export const RESET_STYLE = ` .check{display:flex;gap:.5rem;align-items:baseline;margin:1rem 0 0} .check label{margin:0} .note{color:#555}`;

interface Frame {
  provider: Provider;
  lang: Locale;
}

/** Where "Back to sign-in" leads: the console's sign-in, or the hosted sign-in of the authorization that linked here. */
export type Back = 'console' | string | undefined;

const backLink = (lang: Locale, back: Back) => {
  if (!back) return '';
  const href = back === 'console' ? `/console?lang=${lang}` : `/consent?authorization_id=${encodeURIComponent(back)}`;
  return `<p><a href="${e(href)}">${e(pageTexts(lang).passwordReset.backToSignIn)}</a></p>`;
};
const error = (message: string | undefined) => (message ? `<p class="error" role="alert">${e(message)}</p>` : '');
const page = (f: Frame, title: string, body: string) => layout(title, `${accountHeader(f.lang, f.provider)}\n${body}`, f.lang, RESET_STYLE);

/** The link the sign-in pages show under their form. */
export function forgotPasswordLink(lang: Locale, back: Back): string {
  const query = new URLSearchParams({ lang, ...(back ? { back } : {}) });
  return `<p><a href="/password-reset/new?${e(query.toString())}">${e(pageTexts(lang).passwordReset.forgot)}</a></p>`;
}

/** Asks for the account's address. */
export function renderResetRequest(f: Frame & { csrf: string; email?: string | undefined; error?: string | undefined; back: Back }): string {
  const t = pageTexts(f.lang).passwordReset;
  return page(
    f,
    t.requestTitle,
    `<h1>${e(t.requestTitle)}</h1>
${error(f.error)}
<p>${e(t.requestIntro)}</p>
<form method="post" action="/password-reset/new">
<input type="hidden" name="csrf_token" value="${e(f.csrf)}">
<input type="hidden" name="lang" value="${f.lang}">
${f.back ? `<input type="hidden" name="back" value="${e(f.back)}">` : ''}
<label for="email">${e(pageTexts(f.lang).email)}</label>
<input id="email" name="email" type="email" autocomplete="username" required autofocus value="${e(f.email ?? '')}">
<button type="submit" class="primary">${e(t.send)}</button>
</form>
${backLink(f.lang, f.back)}`,
  );
}

/** After asking: the same words whether or not the address has an account. */
export function renderResetRequested(f: Frame & { email: string; minutes: number; back: Back }): string {
  const t = pageTexts(f.lang).passwordReset;
  return page(
    f,
    t.sentTitle,
    `<h1>${e(t.sentTitle)}</h1>
<p role="status">${e(t.sent(f.email, f.minutes))}</p>
<p class="note">${e(t.sentElse)}</p>
${backLink(f.lang, f.back)}`,
  );
}

/** Where a mailed link leads: opening it changes nothing (mail scanners open links too); the form does. */
export function renderResetForm(f: Frame & { csrf: string; token: string; email: string; signOutEverywhere: boolean; error?: string | undefined }): string {
  const t = pageTexts(f.lang).passwordReset;
  return page(
    f,
    t.formTitle,
    `<h1>${e(t.formTitle)}</h1>
<p>${e(t.formIntro(f.email))}</p>
${error(f.error)}
<form method="post" action="/password-reset">
<input type="hidden" name="csrf_token" value="${e(f.csrf)}">
<input type="hidden" name="token" value="${e(f.token)}">
<input type="hidden" name="lang" value="${f.lang}">
<label for="password">${e(t.newPassword)}</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="8" maxlength="200" required autofocus>
<label for="password_again">${e(t.newPasswordAgain)}</label>
<input id="password_again" name="password_again" type="password" autocomplete="new-password" minlength="8" maxlength="200" required>
<div class="check"><input type="checkbox" id="sign_out_everywhere" name="sign_out_everywhere" value="on"${f.signOutEverywhere ? ' checked' : ''}>
<label for="sign_out_everywhere">${e(t.signOutEverywhere)}</label></div>
<p class="note">${e(t.passkeysKept)}</p>
<button type="submit" class="primary">${e(t.save)}</button>
</form>`,
  );
}

/** A link that is unknown, used, replaced or expired: why, and the way to a new one. */
export function renderResetLinkInvalid(f: Frame & { message?: string | undefined }): string {
  const t = pageTexts(f.lang).passwordReset;
  return page(
    f,
    t.requestTitle,
    `<h1>${e(t.requestTitle)}</h1>
${error(f.message ?? t.linkInvalid)}
<p><a href="/password-reset/new?lang=${f.lang}">${e(t.askAgain)}</a></p>`,
  );
}

export function renderResetDone(f: Frame & { signedOut: boolean }): string {
  const t = pageTexts(f.lang).passwordReset;
  return page(
    f,
    t.doneTitle,
    `<h1>${e(t.doneTitle)}</h1>
<p role="status">${e(t.done(f.signedOut))}</p>
<p>${e(t.doneNext)}</p>`,
  );
}
