import type { Locale } from '../views/locales/locale.js';
import { pageTexts } from '../views/locales/registry.js';
import { accountHeader, escapeHtml as e, layout, type Provider } from '../views/pages.js';

/** What the confirmation form carries back to /oauth/logout: the app's request, and the double-submit token. */
export interface SignOutForm {
  clientId?: string | undefined;
  postLogoutRedirectUri?: string | undefined;
  state?: string | undefined;
  csrf: string;
}

const hidden = (name: string, value: string | undefined) => (value === undefined ? '' : `\n<input type="hidden" name="${name}" value="${e(value)}">`);

/** "Sign out of … as …?": asked when the app's request does not prove it speaks for this session. */
export function renderSignOut(input: { provider: Provider; email: string; form: SignOutForm; lang: Locale }): string {
  const t = pageTexts(input.lang);
  return layout(
    t.signOutTitle,
    `${accountHeader(input.lang, input.provider)}
<h1>${e(t.signOutTitle)}</h1>
<p>${e(t.signOutQuestion(input.provider.name, input.email))}</p>
<form method="post" action="/oauth/logout">${hidden('client_id', input.form.clientId)}${hidden('post_logout_redirect_uri', input.form.postLogoutRedirectUri)}${hidden('state', input.form.state)}${hidden('csrf_token', input.form.csrf)}
<button type="submit" class="primary">${e(t.signOut)}</button>
</form>`,
    input.lang,
  );
}

export function renderSignedOut(input: { provider: Provider; lang: Locale }): string {
  const t = pageTexts(input.lang);
  return layout(
    t.signedOutTitle,
    `${accountHeader(input.lang, input.provider)}\n<h1>${e(t.signedOutTitle)}</h1>\n<p>${e(t.signedOut(input.provider.name))}</p>`,
    input.lang,
  );
}
