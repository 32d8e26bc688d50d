// Wallet answers verified per second through the OpenID4VP verifier (the integrator's request, the
// wallet's fetch of the signed request object, its encrypted answer: three requests), beside the
// verifying library alone on one thread (@sd-jwt/sd-jwt-vc for an SD-JWT VC; @animo-id/mdoc for
// an mdoc) and the Express hello-world, all in this run. Each wallet holds one credential of the
// issuer and presents it anew to every request (its key binding or device signature is made here,
// in the load generator, which shares the machine).
//   npm run --silent -w @svc/bench presentation-verification [-- --format sd-jwt|mdoc --seconds 8 --connections 8]
import { createHash, sign } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { cborEncode, DataItem, DeviceRequest, DeviceResponse, MDoc, parseIssuerSigned } from '@animo-id/mdoc';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import autocannon from 'autocannon';
import { calculateJwkThumbprint, CompactEncrypt, decodeJwt, exportJWK, generateKeyPair, importJWK } from 'jose';
import { helloWorlds, issuerBench, receiveCredential, walletRounds } from './lib.mjs';

const { values } = parseArgs({
  options: { format: { type: 'string', default: 'sd-jwt' }, seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '8' } },
});
const FORMATS = {
  'sd-jwt': {
    configuration: 'age_over_sd_jwt',
    format: 'dc+sd-jwt',
    query: 'age_over_sd_jwt',
    label: 'SD-JWT VC',
    baseline: './targets/raw-sd-jwt-verify.mjs',
    alone: '@sd-jwt/sd-jwt-vc verifying alone, 1 thread',
  },
  mdoc: {
    configuration: 'age_over_mdoc',
    format: 'mso_mdoc',
    query: 'eu_age_verification',
    label: 'mdoc',
    baseline: './targets/raw-mdoc-verify.mjs',
    alone: '@animo-id/mdoc verifying alone, 1 thread',
  },
};
const format = FORMATS[values.format];
if (!format) throw new Error(`--format must be one of ${Object.keys(FORMATS).join(', ')}`);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));

const { database, token } = await issuerBench('credentials:issue,presentations:verify');
const hello = await helloWorlds(async (name, url) => {
  const r = await autocannon({ url, connections, duration: seconds });
  return { name, perSecond: r.requests.total / seconds };
});
const raw = Number(execFileSync(process.execPath, [here(format.baseline), String(seconds)]).toString());

async function call(url, init) {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return res.headers.get('content-type')?.includes('json') ? res.json() : res.text();
}

/** A wallet: its key, and one credential of the issuer bound to it (the pre-authorized code flow, once). */
async function wallet(base) {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const credential = await receiveCredential(base, token, format.configuration, { jwk: await exportJWK(publicKey), privateKey });
  return { privateJwk: await exportJWK(privateKey), credential };
}

const digest = (bytes) => new Uint8Array(createHash('sha256').update(bytes).digest());
const es256 = (jwk) => (data) => sign('sha256', Buffer.from(data), { key: jwk, format: 'jwk', dsaEncoding: 'ieee-p1363' });

/** The holder's presentation for one request object. */
async function present(holder, request) {
  if (format.format === 'dc+sd-jwt') {
    const sdJwt = new SDJwtVcInstance({
      hasher: digest,
      hashAlg: 'sha-256',
      kbSigner: (d) => es256(holder.privateJwk)(d).toString('base64url'),
      kbSignAlg: 'ES256',
    });
    return sdJwt.present(
      holder.credential,
      { age_over_18: true },
      { kb: { payload: { aud: request.client_id, nonce: request.nonce, iat: Math.floor(Date.now() / 1000) } } },
    );
  }
  const key = request.client_metadata.jwks.keys[0];
  const thumbprint = Buffer.from(await calculateJwkThumbprint(key, 'sha256'), 'base64url');
  const handover = digest(cborEncode([request.client_id, request.nonce, new Uint8Array(thumbprint), request.response_uri]));
  const transcript = cborEncode(DataItem.fromData([null, null, ['OpenID4VPHandover', handover]]));
  const document = parseIssuerSigned(Buffer.from(holder.credential, 'base64url'), 'eu.europa.ec.av.1');
  const items = new Map([['eu.europa.ec.av.1', new Map([['age_over_18', false]])]]);
  const context = {
    crypto: { random: () => new Uint8Array(16), digest: ({ bytes }) => digest(bytes), calculateEphemeralMacKeyJwk: () => undefined },
    cose: { sign1: { sign: ({ sign1 }) => new Uint8Array(es256(holder.privateJwk)(sign1.getRawSigningData().data)), verify: () => false }, mac0: {} },
  };
  const response = await DeviceResponse.from(new MDoc([document]))
    .usingDeviceRequest(DeviceRequest.from('1.0', [{ itemsRequestData: { docType: 'eu.europa.ec.av.1', nameSpaces: items } }]))
    .usingSessionTranscriptBytes(transcript)
    .authenticateWithSignature(holder.privateJwk, 'ES256')
    .sign(context);
  return Buffer.from(response.encode()).toString('base64url');
}

/** One answer: the integrator's request, the wallet's fetch, presentation and encrypted answer. */
async function oneAnswer(base, holder) {
  const created = await call(`${base}/presentation-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': token },
    body: JSON.stringify({ presets: ['age_over_18'], formats: [format.format] }),
  });
  const request = decodeJwt(await call(created.request_uri));
  const key = request.client_metadata.jwks.keys[0];
  const plaintext = JSON.stringify({ vp_token: { [format.query]: [await present(holder, request)] }, state: request.state });
  const jwe = await new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: key.kid })
    .encrypt(await importJWK(key, 'ECDH-ES'));
  await call(request.response_uri, { method: 'POST', body: new URLSearchParams({ response: jwe }) });
}

const { perSecond, p50, p99 } = await walletRounds({ database, connections, seconds, prepare: wallet, round: oneAnswer });
console.log(`\npresentation verification (OpenID4VP, ${format.label}), ${connections} wallets at once, ${seconds} s each (${new Date().toISOString()})`);
for (const h of hello) console.log(`${h.name.padEnd(52)}${h.perSecond.toFixed(0).padStart(10)} req/s`);
console.log(`${format.alone.padEnd(52)}${raw.toFixed(0).padStart(10)} /s`);
console.log(`${'answers through the whole flow (3 requests each)'.padEnd(52)}${perSecond.toFixed(1).padStart(10)} /s   p50 ${p50} ms, p99 ${p99} ms`);
console.log(`× verifying alone: ${(perSecond / raw).toFixed(3)}; requests × hello-world: ${((perSecond * 3) / hello[0].perSecond).toFixed(3)}`);
