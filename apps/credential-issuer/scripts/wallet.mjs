#!/usr/bin/env node
// A wallet's part of the guide's OpenID4VCI examples (docs/credential-issuer.md, "Wallets"), for
// trying the issuer without a phone: a throwaway holder key (ES256), made for the run and
// forgotten. A real wallet keeps its key and does the same with a library.
//
//   node apps/credential-issuer/scripts/wallet.mjs proof --audience http://localhost:4002 --nonce="$C_NONCE"
//     prints a key proof (typ openid4vci-proof+jwt) for the credential endpoint (the `=` matters:
//     a nonce may begin with "-", which would otherwise read as an option)
//   node apps/credential-issuer/scripts/wallet.mjs receive "$OFFER_LINK" [--tx-code 123456]
//     runs the pre-authorized code flow (offer, metadata, token, nonce, credential) and prints
//     {"credential": "<SD-JWT VC>", "payload": {…the issuer-signed claims…}, "disclosed": {…}}, or
//     {"credential": {…}} for a W3C credential (ldp_vc: bound to the throwaway key's did:jwk)
import { parseArgs } from 'node:util';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';

const fail = (message) => {
  process.stderr.write(`${message}\n`);
  process.exit(2);
};
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { audience: { type: 'string' }, nonce: { type: 'string' }, 'tx-code': { type: 'string' } },
  });
} catch (err) {
  // A value that begins with "-" (nonces may) reads as an option unless given with "=".
  fail(`${err.message.split('\n')[0]} Give values as --nonce="$C_NONCE", with "=".`);
}
const { values, positionals } = parsed;

const { publicKey, privateKey } = await generateKeyPair('ES256');
const jwk = await exportJWK(publicKey);
const proof = (audience, nonce) =>
  new SignJWT({ aud: audience, nonce, iat: Math.floor(Date.now() / 1000) }).setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk }).sign(privateKey);

async function call(url, init) {
  const res = await fetch(url, init);
  const body = await res.json().catch(() => ({}));
  if (!res.ok) fail(`${init?.method ?? 'GET'} ${url}: ${res.status} ${JSON.stringify(body)}`);
  return body;
}

const [command, link] = positionals;
if (command === 'proof') {
  if (!values.audience || !values.nonce) fail('usage: wallet.mjs proof --audience ISSUER_URL --nonce=C_NONCE');
  process.stdout.write(`${await proof(values.audience, values.nonce)}\n`);
} else if (command === 'receive') {
  if (!link?.startsWith('openid-credential-offer://')) fail('usage: wallet.mjs receive OFFER_LINK [--tx-code CODE]');
  const params = new URL(link).searchParams;
  const offer = params.get('credential_offer') ? JSON.parse(params.get('credential_offer')) : await call(params.get('credential_offer_uri'));
  const issuer = offer.credential_issuer;
  const metadata = await call(`${issuer}/.well-known/openid-credential-issuer`);
  const server = await call(`${issuer}/.well-known/oauth-authorization-server`);
  const grant = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code'];
  if (grant.tx_code && !values['tx-code']) fail('this offer asks for a transaction code: --tx-code');
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code', 'pre-authorized_code': grant['pre-authorized_code'] });
  if (values['tx-code']) form.set('tx_code', values['tx-code']);
  const { access_token } = await call(server.token_endpoint, { method: 'POST', body: form });
  const { c_nonce } = await call(metadata.nonce_endpoint, { method: 'POST' });
  const { credentials } = await call(metadata.credential_endpoint, {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credential_configuration_id: offer.credential_configuration_ids[0], proofs: { jwt: [await proof(issuer, c_nonce)] } }),
  });
  const credential = credentials[0].credential;
  // A W3C credential (ldp_vc) is its own JSON; an SD-JWT VC is opened to show what it holds.
  if (typeof credential !== 'string') {
    process.stdout.write(`${JSON.stringify({ credential })}\n`);
    process.exit(0);
  }
  const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
  const disclosed = Object.fromEntries(disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')).slice(1)));
  process.stdout.write(`${JSON.stringify({ credential, payload: decodeJwt(jwt), disclosed })}\n`);
} else {
  fail('usage: wallet.mjs proof --audience ISSUER_URL --nonce=C_NONCE | wallet.mjs receive OFFER_LINK [--tx-code CODE]');
}
