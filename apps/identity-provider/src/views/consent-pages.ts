import { escapeHtml as e, layout } from './pages.js';

export function renderSignIn(input: { authorizationId: string; email?: string | undefined; error?: string | undefined; csrf: string; appName: string }): string {
  return layout(
    'Sign in',
    `<h1>Sign in to continue to ${e(input.appName)}</h1>
${input.error ? `<p class="error" role="alert">${e(input.error)}</p>` : ''}
<form method="post" action="/consent/sign-in">
<input type="hidden" name="authorization_id" value="${e(input.authorizationId)}">
<input type="hidden" name="csrf_token" value="${e(input.csrf)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${e(input.email ?? '')}"${input.email ? '' : ' autofocus'}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${input.email ? ' autofocus' : ''}>
<button type="submit">Sign in</button>
</form>`,
  );
}

export interface ConsentView {
  authorizationId: string;
  appName: string;
  organizationName: string;
  scopes: { id: string; display_name: string; description: string }[];
  csrf: string;
  email: string;
}

export function renderConsent(v: ConsentView): string {
  const boxes = v.scopes
    .map(
      (s, i) => `<div class="scope"><input type="checkbox" id="scope-${i}" name="scopes" value="${e(s.id)}" checked>
<label for="scope-${i}">${e(s.display_name)}</label><small>${e(s.description)}</small></div>`,
    )
    .join('\n');
  return layout(
    'Share your verified data',
    `<h1>${e(v.appName)} would like to access your verified data</h1>
<p>${e(v.appName)} is an application of <strong>${e(v.organizationName)}</strong>. You are signed in as ${e(v.email)}.</p>
<form method="post" action="/oauth/authorize/approve">
<input type="hidden" name="authorization_id" value="${e(v.authorizationId)}">
<input type="hidden" name="csrf_token" value="${e(v.csrf)}">
<fieldset>
<legend>Choose what to share (untick to share less)</legend>
${boxes}
</fieldset>
<button type="submit">Approve</button>
<button type="submit" formaction="/oauth/authorize/deny" formnovalidate>Deny</button>
</form>`,
  );
}
