import { type Scope, scopeDetail, walletConfiguration } from '@svc/schemas';
import type { Locale } from '../views/locales/locale.js';
import type { PageTexts } from '../views/locales/page-texts.js';
import { forgotPasswordLink } from '../password-reset/reset-pages.js';
import { pageTexts } from '../views/locales/registry.js';
import { accountHeader, escapeHtml as e, layout, type Provider } from '../views/pages.js';
import { passkeyScriptTag } from '../passkeys/page-script.js';
import { passkeySignInBlock } from '../passkeys/sign-in/sign-in-block.js';

export function renderSignIn(input: {
  provider: Provider;
  authorizationId: string;
  email?: string | undefined;
  error?: string | undefined;
  /** Why a signed-in person is asked to sign in again (the request's prompt, max_age or acr). */
  notice?: string | undefined;
  csrf: string;
  appName: string;
  lang: Locale;
}): string {
  const t = pageTexts(input.lang);
  return layout(
    t.signInTitle,
    `${accountHeader(input.lang, input.provider)}
<h1>${e(t.signInHeading(input.appName))}</h1>
${input.notice ? `<p role="status">${e(input.notice)}</p>` : ''}
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
${passkeySignInBlock(t, `/consent?authorization_id=${encodeURIComponent(input.authorizationId)}`)}
<form method="post" action="/consent/sign-in">
<input type="hidden" name="authorization_id" value="${e(input.authorizationId)}">
<input type="hidden" name="csrf_token" value="${e(input.csrf)}">
<label for="email">${e(t.email)}</label>
<input id="email" name="email" type="email" autocomplete="username webauthn" required value="${e(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
<label for="password">${e(t.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
<button type="submit" class="primary">${e(t.signIn)}</button>
</form>
${forgotPasswordLink(input.lang, input.authorizationId)}
${passkeyScriptTag()}`,
    input.lang,
  );
}

export interface ConsentView {
  provider: Provider;
  authorizationId: string;
  appName: string;
  organizationName: string;
  /** Every scope that approving grants: requested ones, and those they imply. */
  scopes: Scope[];
  /** The scopes the client asked for by name; the others are shown as asked for together with them. */
  requested: string[];
  /** Credentials a wallet asks for (OpenID4VCI), granted with the approval, and the host of their issuer. */
  credentials: { configurationId: string; issuerHost: string }[];
  csrf: string;
  email: string;
  lang: Locale;
}

/** What each credential is and which facts it holds, in the page's language: shown, not chosen (the holder chooses later, per verifier). */
function credentialList(t: PageTexts, lang: Locale, credentials: ConsentView['credentials']): string {
  if (credentials.length === 0) return '';
  const items = credentials.map(({ configurationId }) => {
    const type = walletConfiguration(configurationId)!.type;
    const facts = type.claims.filter((c) => c.preset).map((c) => c.labels[lang]);
    return `<li><strong>${e(type.names[lang])}</strong>: ${e(facts.join(', '))}</li>`;
  });
  return `<fieldset class="wallet">
<legend>${e(t.walletLegend)}</legend>
<ul>${items.join('')}</ul>
<small>${e(t.walletNote(credentials[0]!.issuerHost))}</small>
</fieldset>`;
}

export function renderConsent(v: ConsentView): string {
  const t = pageTexts(v.lang);
  const boxes = v.scopes
    .map((id, i) => {
      const by = v.requested.filter((r) => scopeDetail(r)?.implied_scopes?.includes(id)).map((r) => t.scopes[r as Scope].display_name);
      const note = v.requested.includes(id) || by.length === 0 ? '' : `<small class="implied">${e(t.includedWith(by.join(', ')))}</small>`;
      return `<div class="scope"><input type="checkbox" id="scope-${i}" name="scopes" value="${e(id)}" checked>
<label for="scope-${i}">${e(t.scopes[id].display_name)}</label><small>${e(t.scopes[id].description)}</small>${note}</div>`;
    })
    .join('\n');
  const intro = t.consentIntro(v.appName, v.organizationName, v.email);
  return layout(
    t.consentTitle,
    `${accountHeader(v.lang, v.provider)}
<h1>${e(t.consentHeading(v.appName))}</h1>
<p>${e(intro.before)}<strong>${e(intro.organization)}</strong>${e(intro.after)}</p>
<form method="post" action="/oauth/authorize/approve">
<input type="hidden" name="authorization_id" value="${e(v.authorizationId)}">
<input type="hidden" name="csrf_token" value="${e(v.csrf)}">
${credentialList(t, v.lang, v.credentials)}
${
  boxes
    ? `<fieldset>
<legend>${e(t.chooseLegend)}</legend>
${boxes}
</fieldset>`
    : ''
}
<button type="submit" class="primary">${e(t.approve)}</button>
<button type="submit" formaction="/oauth/authorize/deny" formnovalidate>${e(t.deny)}</button>
</form>
<form method="post" action="/consent/sign-out" class="account">
<input type="hidden" name="authorization_id" value="${e(v.authorizationId)}">
<input type="hidden" name="csrf_token" value="${e(v.csrf)}">
${e(t.notYou(v.email))} <button type="submit" class="link">${e(t.signOut)}</button>
</form>`,
    v.lang,
  );
}
