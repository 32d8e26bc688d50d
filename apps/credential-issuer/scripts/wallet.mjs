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
//   node apps/credential-issuer/scripts/wallet.mjs prove "$REQUEST_LINK" --offer "$OFFER_LINK" [--tx-code 123456]
//     takes the offered SD-JWT VC, then answers the presentation request (OpenID4VP 1.0) with it:
//     fetches and checks the signed request (x509_hash), discloses only what it asks, binds the
//     presentation to its nonce and client id, and posts it encrypted (direct_post.jwt); prints
//     {"status": <the verifier's HTTP status>, "credential_query_id", "disclosed": {…}}, and
//     "redirect_uri" where the request was made with one (the page to send the person back to)
import { createHash, KeyObject, sign, X509Certificate } from 'node:crypto';
import { parseArgs } from 'node:util';
import { parseIssuerSigned } from '@animo-id/mdoc';
import { setGlobalConfig } from '@openid4vc/oauth2';
import { extractEncryptionJwkFromJwks, Openid4vpClient } from '@openid4vc/openid4vp';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { base64url, CompactEncrypt, compactVerify, decodeJwt, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';

const USAGE = `usage:
  wallet.mjs proof --audience ISSUER_URL --nonce=C_NONCE     a key proof for the credential endpoint
  wallet.mjs receive OFFER_LINK [--tx-code CODE]             the pre-authorized code flow, end to end
  wallet.mjs prove REQUEST_LINK --offer OFFER_LINK [--tx-code CODE]
                                                             take the offered SD-JWT VC and present it
`;
const fail = (message) => {
  process.stderr.write(`${message}\n${USAGE}`);
  process.exit(2);
};
let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      audience: { type: 'string' },
      nonce: { type: 'string' },
      'tx-code': { type: 'string' },
      offer: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
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

const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
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

/** The pre-authorized code flow, from the offer link to the credential bound to the throwaway key. */
async function receive(link) {
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
  return { credential: credentials[0].credential, configuration: metadata.credential_configurations_supported[offer.credential_configuration_ids[0]] };
}

// The verifier's side of OpenID4VP, done by @openid4vc/openid4vp; it leaves the cryptography to its caller.
// A wallet in the field takes https only; this one tries the services on localhost.
setGlobalConfig({ allowInsecureUrls: true });
const leaf = (x5c) => new X509Certificate(Buffer.from(x5c, 'base64'));
const verifierClient = new Openid4vpClient({
  callbacks: {
    hash: (data, alg) => createHash(alg.replace('-', '').toLowerCase()).update(data).digest(),
    // The request object's signature by the leaf of its x5c; that the leaf is the client id's (x509_hash) the library checks.
    verifyJwt: async (signer, { compact }) => {
      if (signer.method !== 'x5c') return { verified: false };
      const publicKey = leaf(signer.x5c[0]).publicKey;
      const ok = await compactVerify(compact, publicKey, { algorithms: [signer.alg] }).then(
        () => true,
        () => false,
      );
      return ok ? { verified: true, signerJwk: publicKey.export({ format: 'jwk' }) } : { verified: false };
    },
    getX509CertificateMetadata: (certificate) => {
      const names = leaf(certificate).subjectAltName?.split(', ') ?? [];
      const of = (prefix) => names.filter((n) => n.startsWith(prefix)).map((n) => n.slice(prefix.length));
      return { sanDnsNames: of('DNS:'), sanUriNames: of('URI:') };
    },
    encryptJwe: async (encryptor, data) => {
      const jwe = await new CompactEncrypt(new TextEncoder().encode(data))
        .setProtectedHeader({ alg: encryptor.alg, enc: encryptor.enc, ...(encryptor.publicJwk.kid ? { kid: encryptor.publicJwk.kid } : {}) })
        .setKeyManagementParameters(encryptor.apv ? { apv: base64url.decode(encryptor.apv) } : {})
        .encrypt(await importJWK(encryptor.publicJwk, encryptor.alg));
      return { jwe, encryptionJwk: encryptor.publicJwk };
    },
  },
});
const JARM = {
  authorization_signing_alg_values_supported: ['ES256'],
  authorization_encryption_alg_values_supported: ['ECDH-ES'],
  authorization_encryption_enc_values_supported: ['A128GCM', 'A256GCM'],
};

/** Answers a presentation request with an SD-JWT VC this key holds, disclosing what the request's DCQL query names. */
async function prove(requestLink, credential) {
  const parsed = verifierClient.parseOpenid4vpAuthorizationRequest({ authorizationRequest: requestLink });
  const resolved = await verifierClient.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  const request = resolved.authorizationRequestPayload;
  const vct = decodeJwt(credential.split('~')[0]).vct;
  const query = resolved.dcql.query.credentials.find((q) => q.format === 'dc+sd-jwt' && (!q.meta?.vct_values || q.meta.vct_values.includes(vct)));
  if (!query) fail(`The request asks for no SD-JWT VC of type ${vct}.`);
  const frame = Object.fromEntries((query.claims ?? []).map((c) => [c.path[0], true]));
  const holderKey = KeyObject.from(privateKey);
  const sdJwt = new SDJwtVcInstance({
    hasher: (data) => createHash('sha256').update(data).digest(),
    kbSigner: (data) => sign('sha256', Buffer.from(data), { key: holderKey, dsaEncoding: 'ieee-p1363' }).toString('base64url'),
    kbSignAlg: 'ES256',
  });
  const presentation = await sdJwt.present(credential, frame, {
    kb: { payload: { aud: resolved.client.effective, nonce: request.nonce, iat: Math.floor(Date.now() / 1000) } },
  });
  const encryptionJwk = extractEncryptionJwkFromJwks(request.client_metadata.jwks, { supportedAlgValues: ['ECDH-ES'] });
  const { jarm } = await verifierClient.createOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: { [query.id]: [presentation] } },
    jarm: { encryption: { nonce: '', jwk: encryptionJwk }, serverMetadata: JARM },
  });
  const { response } = await verifierClient.submitOpenid4vpAuthorizationResponse({
    authorizationRequestPayload: request,
    authorizationResponsePayload: { vp_token: {} },
    jarm: { responseJwt: jarm.responseJwt },
  });
  const answered = { status: response.status, credential_query_id: query.id, disclosed: frame };
  const body = await response.json().catch(() => ({}));
  // The verifier refused it: say why, and fail as a command does.
  if (!response.ok) fail(`The verifier refused the presentation: ${JSON.stringify({ ...answered, body })}`);
  // Same device: where a wallet on the phone would send the browser now (with its response_code).
  return body.redirect_uri ? { ...answered, redirect_uri: body.redirect_uri } : answered;
}

const [command, link] = positionals;
if (command === 'proof') {
  if (!values.audience || !values.nonce) fail('proof needs --audience and --nonce.');
  process.stdout.write(`${await proof(values.audience, values.nonce)}\n`);
} else if (command === 'receive') {
  const { credential, configuration } = await receive(link);
  // A W3C credential (ldp_vc) is its own JSON; an SD-JWT VC and an mdoc are opened to show what they hold.
  if (typeof credential !== 'string') {
    process.stdout.write(`${JSON.stringify({ credential })}\n`);
    process.exit(0);
  }
  if (configuration.format === 'mso_mdoc') {
    process.stdout.write(`${JSON.stringify({ credential, ...openMdoc(credential, configuration.doctype) })}\n`);
    process.exit(0);
  }
  const [jwt, ...disclosures] = credential.split('~').filter(Boolean);
  const disclosed = Object.fromEntries(disclosures.map((d) => JSON.parse(Buffer.from(d, 'base64url').toString('utf8')).slice(1)));
  process.stdout.write(`${JSON.stringify({ credential, payload: decodeJwt(jwt), disclosed })}\n`);
} else if (command === 'prove') {
  if (!link?.startsWith('openid4vp://')) fail('prove needs a presentation request link (openid4vp://…).');
  if (!values.offer) fail('prove needs --offer: the offer of the SD-JWT VC to present.');
  const { credential, configuration } = await receive(values.offer);
  if (configuration.format !== 'dc+sd-jwt') fail('prove presents SD-JWT VCs: offer a dc+sd-jwt configuration.');
  process.stdout.write(`${JSON.stringify(await prove(link, credential))}\n`);
} else {
  fail(command ? `Unknown command ${JSON.stringify(command)}.` : 'Name a command.');
}
