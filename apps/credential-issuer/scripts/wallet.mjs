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
//     {"credential": {…}} for a W3C credential (ldp_vc: bound to the throwaway key's did:jwk), or
//     {"credential": "<base64url IssuerSigned>", "doctype", "claims": {namespace: {…}}, "valid_from",
//     "valid_until", "signer_certificate": "<PEM>"} for an mdoc (mso_mdoc)
import { parseArgs } from 'node:util';
import { parseIssuerSigned } from '@animo-id/mdoc';
import { decodeJwt, exportJWK, generateKeyPair, SignJWT } from 'jose';

const USAGE = `usage:
  wallet.mjs proof --audience ISSUER_URL --nonce=C_NONCE     a key proof for the credential endpoint
  wallet.mjs receive OFFER_LINK [--tx-code CODE]             the pre-authorized code flow, end to end
`;
const fail = (message) => {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
};
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { audience: { type: 'string' }, nonce: { type: 'string' }, 'tx-code': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
} catch (err) {
  // node:util's first sentence names the option; what it suggests next is about positionals, not
  // this script. A value that begins with "-" (nonces may) reads as an option unless given with "=".
  const said = `${err.message.split(/\.\s|\n/)[0]}.`;
  fail(/ambiguous/.test(said) ? `${said} Give values with "=", as --nonce="$C_NONCE".` : said);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

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

/** An mdoc's IssuerSigned, opened with @animo-id/mdoc: its claims per namespace, validity, and the signer's certificate (PEM). */
function openMdoc(credential, doctype) {
  const { issuerSigned } = parseIssuerSigned(Buffer.from(credential, 'base64url'), doctype);
  const claims = Object.fromEntries(
    [...issuerSigned.nameSpaces].map(([namespace, items]) => [namespace, Object.fromEntries(items.map((i) => [i.elementIdentifier, i.elementValue]))]),
  );
  const { validityInfo } = issuerSigned.issuerAuth.decodedPayload;
  const der = Buffer.from(issuerSigned.issuerAuth.certificate).toString('base64');
  const signer_certificate = `-----BEGIN CERTIFICATE-----\n${der.match(/.{1,64}/g).join('\n')}\n-----END CERTIFICATE-----\n`;
  return { doctype, claims, valid_from: validityInfo.validFrom, valid_until: validityInfo.validUntil, signer_certificate };
}

const [command, link] = positionals;
if (command === 'proof') {
  if (!values.audience || !values.nonce) fail('proof needs --audience and --nonce.');
  process.stdout.write(`${await proof(values.audience, values.nonce)}\n`);
} else if (command === 'receive') {
  if (!link?.startsWith('openid-credential-offer://')) fail('receive needs an offer link (openid-credential-offer://…).');
  const params = new URL(link).searchParams;
  const offer = params.get('credential_offer') ? JSON.parse(params.get('credential_offer')) : await call(params.get('credential_offer_uri'));
  const issuer = offer.credential_issuer;
  const metadata = await call(`${issuer}/.well-known/openid-credential-issuer`);
  const server = await call(`${issuer}/.well-known/oauth-authorization-server`);
  const grant = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code'];
  if (grant.tx_code && !values['tx-code']) fail('This offer asks for a transaction code: give it with --tx-code.');
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
  // A W3C credential (ldp_vc) is its own JSON; an SD-JWT VC and an mdoc are opened to show what they hold.
  if (typeof credential !== 'string') {
    process.stdout.write(`${JSON.stringify({ credential })}\n`);
    process.exit(0);
  }
  const configuration = metadata.credential_configurations_supported[offer.credential_configuration_ids[0]];
  if (configuration.format === 'mso_mdoc') {
    process.stdout.write(`${JSON.stringify({ credential, ...openMdoc(credential, configuration.doctype) })}\n`);
    process.exit(0);
  }
  const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
  const disclosed = Object.fromEntries(disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')).slice(1)));
  process.stdout.write(`${JSON.stringify({ credential, payload: decodeJwt(jwt), disclosed })}\n`);
} else {
  fail(command ? `Unknown command ${JSON.stringify(command)}.` : 'Name a command.');
}
