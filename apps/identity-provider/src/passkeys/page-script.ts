/**
 * The one script of the hosted pages (assets/passkeys.js): it asks the browser for a passkey and
 * hands the answer to the API. Pages that load it allow this one file, from this origin, and
 * requests to this origin (pageCsp's `script`); every other page runs no script at all.
 */
export const PASSKEY_SCRIPT_PATH = '/assets/passkeys.js';

/** The script sources of a page that loads it: the file's own URL, so no other script of this origin runs there. */
export const passkeyScriptSource = (issuer: string) => `${new URL(issuer).origin}${PASSKEY_SCRIPT_PATH}`;

/** The `<script>` element; `defer`, so it runs once the page's forms exist. */
export const passkeyScriptTag = () => `<script src="${PASSKEY_SCRIPT_PATH}" defer></script>`;
