// The hosted pages' passkey script, served at /assets/passkeys.js: the only script any page runs.
// It asks the browser for a passkey and hands the answer to the same API that integrators call
// (docs/identity-provider.md, "Passkeys"), so the pages can do nothing the API cannot. The pages
// work without it (the password form needs no script); where the browser has no WebAuthn, the
// passkey controls stay hidden. Texts come from the page's data attributes, in its language.

(() => {
  // WebAuthn's JSON forms write bytes as base64url without padding.
  const toBase64url = (buffer) => {
    let binary = '';
    for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
    return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
  };
  const fromBase64url = (text) => {
    const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  };

  const post = async (path, body, headers = {}, method = 'POST') => {
    const response = await fetch(path, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
    });
    const text = await response.text();
    const json = text ? JSON.parse(text) : {};
    if (!response.ok) throw Object.assign(new Error(json.error_description || response.statusText), { code: json.error, status: response.status });
    return json;
  };

  const show = (element, message) => {
    if (!element) return;
    element.textContent = message;
    element.hidden = !message;
  };

  /** The JSON of a new passkey (RegistrationResponseJSON). */
  const registrationJson = (credential) => ({
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: toBase64url(credential.response.clientDataJSON),
      attestationObject: toBase64url(credential.response.attestationObject),
      ...(credential.response.getTransports ? { transports: credential.response.getTransports() } : {}),
    },
  });

  /** The JSON of a signed challenge (AuthenticationResponseJSON). */
  const authenticationJson = (credential) => ({
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    ...(credential.authenticatorAttachment ? { authenticatorAttachment: credential.authenticatorAttachment } : {}),
    clientExtensionResults: credential.getClientExtensionResults(),
    response: {
      clientDataJSON: toBase64url(credential.response.clientDataJSON),
      authenticatorData: toBase64url(credential.response.authenticatorData),
      signature: toBase64url(credential.response.signature),
      ...(credential.response.userHandle ? { userHandle: toBase64url(credential.response.userHandle) } : {}),
    },
  });

  const requestOptions = (options) => ({
    ...options,
    challenge: fromBase64url(options.challenge),
    allowCredentials: (options.allowCredentials || []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  });

  const creationOptions = (options) => ({
    ...options,
    challenge: fromBase64url(options.challenge),
    user: { ...options.user, id: fromBase64url(options.user.id) },
    excludeCredentials: (options.excludeCredentials || []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  });

  // The person closed the browser's dialog, or another request took its place: nothing to say.
  const dismissed = (err) => err && (err.name === 'NotAllowedError' || err.name === 'AbortError');

  /** Sign-in pages: a button, and the email field's autofill (conditional mediation). */
  const signIn = (root) => {
    const button = root.querySelector('[data-passkey-button]');
    const error = root.querySelector('[data-passkey-error]');
    let pending;

    const run = async (mediation) => {
      pending?.abort();
      const controller = new AbortController();
      pending = controller;
      const { challenge_id, options } = await post('/auth/passkey/options');
      const credential = await navigator.credentials.get({ publicKey: requestOptions(options), mediation, signal: controller.signal });
      if (!credential) return;
      await post('/auth/passkey', { challenge_id, credential: authenticationJson(credential) });
      window.location.assign(root.dataset.next || '/account');
    };
    const fail = (err) => {
      if (!dismissed(err)) show(error, err.status === 429 ? root.dataset.textSlow : root.dataset.textFailed);
    };

    root.hidden = false;
    button.addEventListener('click', () => {
      show(error, '');
      run('optional').catch(fail);
    });
    // Autofill: the browser lists the person's passkeys under the email field until one is picked.
    // It runs in the background: when it fails (no passkeys here, a host WebAuthn refuses) the page
    // says nothing, as the person asked for nothing.
    PublicKeyCredential.isConditionalMediationAvailable?.()
      .then((available) => available && run('conditional'))
      .catch(() => {});
  };

  /** The account page: add, rename and delete passkeys through /v2/me/passkeys (cookie and CSRF token). */
  const account = (root) => {
    const csrf = { 'X-CSRF-Token': root.dataset.csrf };
    const error = root.querySelector('[data-passkey-error]');
    const fail = (err) => {
      if (!dismissed(err)) show(error, err.code === 'last_sign_in_method' ? root.dataset.textLast : root.dataset.textFailed);
    };
    for (const hint of root.querySelectorAll('[data-passkey-needs-script]')) hint.hidden = true;
    const addForm = root.querySelector('[data-passkey-add]');
    addForm.hidden = false;
    addForm.addEventListener('submit', (event) => {
      event.preventDefault();
      show(error, '');
      const name = addForm.elements.name.value.trim();
      (async () => {
        const options = await post('/v2/me/passkeys/registration-options', {}, csrf);
        const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
        await post('/v2/me/passkeys', { ...(name ? { name } : {}), credential: registrationJson(credential) }, csrf);
        window.location.reload();
      })().catch(fail);
    });
    for (const form of root.querySelectorAll('[data-passkey-rename]')) {
      form.hidden = false;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        show(error, '');
        post(`/v2/me/passkeys/${form.dataset.id}`, { name: form.elements.name.value.trim() }, csrf, 'PATCH')
          .then(() => window.location.reload())
          .catch(fail);
      });
    }
    for (const form of root.querySelectorAll('[data-passkey-delete]')) {
      form.hidden = false;
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        show(error, '');
        post(`/v2/me/passkeys/${form.dataset.id}`, undefined, csrf, 'DELETE')
          .then(() => window.location.reload())
          .catch(fail);
      });
    }
  };

  if (!window.PublicKeyCredential) return;
  for (const root of document.querySelectorAll('[data-passkey-sign-in]')) signIn(root);
  for (const root of document.querySelectorAll('[data-passkey-account]')) account(root);
})();
