import type { PageTexts } from '../../views/locales/page-texts.js';
import { escapeHtml as e } from '../../views/pages.js';

/**
 * "Sign in with a passkey", above a sign-in page's password form: hidden until the page's script
 * (assets/passkeys.js) finds WebAuthn in the browser, so nobody is offered what cannot work. The
 * script also offers the passkeys in the email field's autofill (its autocomplete says `webauthn`)
 * and goes to `next` once signed in.
 */
export function passkeySignInBlock(t: PageTexts, next: string): string {
  return `<div data-passkey-sign-in data-next="${e(next)}" data-text-failed="${e(t.passkeyFailed)}" data-text-slow="${e(t.tooManyAttempts)}" hidden>
<button type="button" class="primary" data-passkey-button>${e(t.passkeyButton)}</button>
<p class="error" role="alert" data-passkey-error hidden></p>
<p>${e(t.orWithPassword)}</p>
</div>`;
}
