/**
 * The one script of the demo app, served as /proof.js (the CSP allows scripts from 'self' only,
 * nothing inline): it hands the request to a wallet in this browser through the W3C Digital
 * Credentials API, posts what the wallet returned to the app, and polls for the answer a phone's
 * wallet gives by the QR code. It writes text only (textContent), never markup.
 */
export const PROOF_SCRIPT = `(() => {
  const section = document.getElementById('proof');
  const result = document.getElementById('proof-result');
  const button = document.getElementById('proof-dc-api');
  const alert = document.getElementById('proof-alert');
  if (!section || !result || !alert) return;
  const rows = (view) => {
    if (view.status === 'verified') return [['status', 'verified'], [view.preset, JSON.stringify(view.value)], ['issuer', view.issuer]];
    if (view.status === 'failed') return [['status', 'failed'], ['failed check', view.check], ['why', view.message]];
    if (view.status === 'expired') return [['status', 'expired: ask again']];
    if (view.refused) return [['status', 'pending: the last answer was refused, a wallet may answer again'], ['failed check', view.refused.check], ['why', view.refused.message]];
    return [['status', 'pending: waiting for a wallet']];
  };
  const show = (view) => {
    const table = document.createElement('table');
    table.className = 'pairs';
    for (const [name, value] of rows(view)) {
      const tr = table.insertRow();
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = name;
      const code = document.createElement('code');
      code.textContent = value;
      tr.append(th);
      tr.insertCell().append(code);
    }
    result.replaceChildren(table);
    section.dataset.status = view.status;
  };
  // Apart from the result, which the polling rewrites.
  const say = (text) => {
    alert.textContent = text;
    alert.hidden = !text;
  };
  // The QR code's path: the wallet answers the credential issuer, this page asks the app until it knows.
  const poll = async () => {
    if (section.dataset.status !== 'pending') return;
    try {
      const res = await fetch('/proof/result', { headers: { accept: 'application/json' } });
      if (res.ok) show(await res.json());
    } catch {}
    if (section.dataset.status === 'pending') setTimeout(poll, 1500);
  };
  poll();
  if (!button) return;
  button.addEventListener('click', async () => {
    if (typeof navigator.credentials?.get !== 'function' || typeof window.DigitalCredential === 'undefined') {
      say('This browser has no Digital Credentials API (navigator.credentials.get with digital): scan the QR code with the wallet on your phone instead.');
      return;
    }
    button.disabled = true;
    say('');
    try {
      const credential = await navigator.credentials.get({ mediation: 'required', digital: { requests: [JSON.parse(button.dataset.request)] } });
      if (!credential || !credential.data) throw new Error('the wallet gave no answer');
      const res = await fetch('/proof/dc-api-response', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ csrf: section.dataset.csrf, protocol: credential.protocol, data: credential.data }),
      });
      const body = await res.json().catch(() => ({}));
      if (!res.ok) throw new Error(body.error || 'the app refused the answer (' + res.status + ')');
      show(body);
    } catch (err) {
      say('No proof from a wallet in this browser: ' + (err && err.message ? err.message : String(err)));
      button.disabled = false;
    }
  });
})();
`;
