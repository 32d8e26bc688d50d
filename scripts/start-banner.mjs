// What `npm start` prints once every service answers /ready (scripts/launcher.mjs): where each one
// is and, with demo data, how to try them; the demo secrets only on the start that made them.
import { createHash, randomBytes } from 'node:crypto';

/**
 * The banner's lines. `services`: the three services, in order; `sandboxUrl`: the sandbox's, when
 * it runs; `demo`: the demo data, when there is any; `demoFile`: where its secrets are kept;
 * `mailOutboxes`: the outbox pages that hold the identity providers' mail when no SMTP_URL is set.
 */
export function bannerLines({ services, sandboxUrl, demo, demoAppPort, demoFile, mailOutboxes = [] }) {
  const [idp, wallet, issuer] = services.map((s) => `http://localhost:${s.port}`);
  const lines = ['', 'All services are ready:', `  identity-provider  ${idp}`, `  wallet-verify      ${wallet}`, `  credential-issuer  ${issuer}`];
  if (sandboxUrl)
    lines.push(`  sandbox            ${sandboxUrl}  (the identity provider's sandbox: sign up, register an app and make test users there; docs/sandbox.md)`);
  if (mailOutboxes.length) lines.push(`  mail outbox        ${mailOutboxes.join('  ')}  (no SMTP_URL: mail is kept there, not sent; sign-up links too)`);
  if (demo) {
    const client = demo.clients.confidential;
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const authorize = new URL('/oauth/authorize', idp);
    authorize.search = new URLSearchParams({
      client_id: client.client_id,
      redirect_uri: client.redirect_uri,
      response_type: 'code',
      scope: 'openid identity:read kyc:read',
      state: randomBytes(8).toString('hex'),
      nonce: randomBytes(8).toString('hex'),
      code_challenge: challenge,
      code_challenge_method: 'S256',
    }).toString();
    const user = demo.users.palm_verified;
    lines.push(
      '',
      `Demo app (a relying party built with the SDK): open http://localhost:${demoAppPort} and sign in as ${user.email}${demo.fresh ? ' (password below)' : ` (password in ${demoFile})`}.`,
      'Every endpoint by example: docs/identity-provider.md, docs/wallet-verify.md, docs/credential-issuer.md ("Every endpoint, by example").',
    );
    // Demo secrets are shown once, when they are made, in a marked block; later starts point to the file.
    if (!demo.fresh) {
      lines.push(
        '',
        `Demo data: client_id=${client.client_id}; its secret, the users' passwords and the API keys are in ${demoFile} (mode 0600).`,
        `  open ${authorize}`,
        `  PKCE code_verifier for that URL: ${verifier}`,
      );
    } else
      lines.push(
        '',
        '=== DEMO SECRETS (embedded demo data, local development only; shown once, kept in .data/demo.json) ===',
        `  OAuth client (confidential)  client_id=${client.client_id}`,
        `                               client_secret=${client.client_secret}`,
        `  OAuth client (public, PKCE)  client_id=${demo.clients.public.client_id}`,
        `  redirect URI                 ${client.redirect_uri}`,
        `  user (palm-verified)         ${user.email} / ${user.password}   wallet ${user.wallets[0]}`,
        `  user (not palm-verified)     ${demo.users.not_palm_verified.email} / ${demo.users.not_palm_verified.password}`,
        `  developer (org owner)        ${demo.users.developer.email} / ${demo.users.developer.password}`,
        `  wallet-verify API key        ${demo.api_keys.wallet_verify.key}`,
        `  credential-issuer API token  ${demo.api_keys.credential_issuer.key}`,
        '',
        'Try:',
        `  curl -H 'X-SVC-API-Key: ${demo.api_keys.wallet_verify.key}' '${wallet}/v1/human/verify?wallet_address=${user.wallets[0]}'`,
        `  curl -H 'X-API-Token: ${demo.api_keys.credential_issuer.key}' -H 'content-type: application/json' ${issuer}/credential-offers -d '{"credential_configuration_id": "age_over_sd_jwt", "claims": {"age_over_18": true}}'`,
        '  (an offer for a wallet: scan its offer_link as a QR code, type its tx_code; docs/credential-issuer.md, "Wallets")',
        `  open ${authorize}`,
        `  PKCE code_verifier for that URL: ${verifier}`,
        '  (after you approve, the demo app shows the code to exchange with that verifier: docs/identity-provider.md)',
        '=== END OF DEMO SECRETS ===',
      );
  }
  lines.push('', 'Ctrl-C stops everything.', '');
  return lines;
}
