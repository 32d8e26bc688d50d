// Credentials issued per second through the whole OpenID4VCI pre-authorized code flow (offer,
// token, nonce, credential: four requests, each wallet with its own key and proof), beside the
// signing library alone on one thread (jose's one ES256 signature for an SD-JWT VC; @animo-id/mdoc
// for an mdoc) and the Express hello-world, all in this run.
//   npm run --silent -w @svc/bench wallet-issuance [-- --format sd-jwt|mdoc --seconds 8 --connections 8]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { helloWorlds, issuerBench, startTarget } from './lib.mjs';

const { values } = parseArgs({
  options: { format: { type: 'string', default: 'sd-jwt' }, seconds: { type: 'string', default: '8' }, connections: { type: 'string', default: '8' } },
});
const FORMATS = {
  'sd-jwt': { configuration: 'age_over_sd_jwt', label: 'SD-JWT VC', baseline: './targets/raw-es256.mjs', alone: 'jose ES256 signing alone, 1 thread' },
  mdoc: { configuration: 'age_over_mdoc', label: 'mdoc', baseline: './targets/raw-mdoc.mjs', alone: '@animo-id/mdoc issuing alone, 1 thread' },
};
const format = FORMATS[values.format];
if (!format) throw new Error(`--format must be one of ${Object.keys(FORMATS).join(', ')}`);
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const GRANT = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

const { database, token } = await issuerBench();

const hello = await helloWorlds(async (name, url) => {
  const r = await autocannon({ url, connections, duration: seconds });
  return { name, perSecond: r.requests.total / seconds };
});
const raw = Number(execFileSync(process.execPath, [here(format.baseline), String(seconds)]).toString());

/** One wallet's whole flow; the milliseconds it took. */
async function oneCredential(base, holder) {
  const started = performance.now();
  const call = async (path, init) => {
    const res = await fetch(`${base}${path}`, init);
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const offer = await call('/credential-offers', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-token': token },
    body: JSON.stringify({ credential_configuration_id: format.configuration, claims: { age_over_18: true, age_over_21: true }, tx_code: false }),
  });
  const code = offer.credential_offer.grants[GRANT]['pre-authorized_code'];
  const { access_token } = await call('/token', { method: 'POST', body: new URLSearchParams({ grant_type: GRANT, 'pre-authorized_code': code }) });
  const { c_nonce } = await call('/nonce', { method: 'POST' });
  const proof = await new SignJWT({ aud: base, nonce: c_nonce, iat: Math.floor(Date.now() / 1000) })
    .setProtectedHeader({ alg: 'ES256', typ: 'openid4vci-proof+jwt', jwk: holder.jwk })
    .sign(holder.privateKey);
  await call('/credential', {
    method: 'POST',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credential_configuration_id: format.configuration, proofs: { jwt: [proof] } }),
  });
  return performance.now() - started;
}

// Every wallet here calls from one address: its allowances (NONCES_PER_MINUTE, WALLET_REQUESTS_PER_MINUTE) must not cap the run.
const target = await startTarget(here('../apps/credential-issuer/dist/server.js'), {
  DATABASE_URL: database.url,
  LOG_LEVEL: 'warn',
  PUBLIC_URL: '',
  NONCES_PER_MINUTE: '1000000',
  WALLET_REQUESTS_PER_MINUTE: '1000000',
});
const base = target.url;
const durations = [];
try {
  // PUBLIC_URL must be where the bench calls it: the proof's audience is the issuer's identifier.
  const issuerId = (await (await fetch(`${base}/.well-known/openid-credential-issuer`)).json()).credential_issuer;
  const holders = await Promise.all(
    Array.from({ length: connections }, async () => {
      const { publicKey, privateKey } = await generateKeyPair('ES256');
      return { jwk: await exportJWK(publicKey), privateKey };
    }),
  );
  await oneCredential(issuerId, holders[0]);
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    holders.map(async (holder) => {
      while (Date.now() < end) durations.push(await oneCredential(issuerId, holder));
    }),
  );
} finally {
  await target.stop();
  await database.close();
}
durations.sort((a, b) => a - b);
const perSecond = durations.length / seconds;
const p = (q) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))].toFixed(1);
console.log(`\nwallet issuance (OpenID4VCI, ${format.label}), ${connections} wallets at once, ${seconds} s each (${new Date().toISOString()})`);
for (const h of hello) console.log(`${h.name.padEnd(52)}${h.perSecond.toFixed(0).padStart(10)} req/s`);
console.log(`${format.alone.padEnd(52)}${raw.toFixed(0).padStart(10)} /s`);
console.log(
  `${'credentials through the whole flow (4 requests each)'.padEnd(52)}${perSecond.toFixed(1).padStart(10)} /s   p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`,
);
console.log(`× signing alone: ${(perSecond / raw).toFixed(3)}; requests × hello-world: ${((perSecond * 4) / hello[0].perSecond).toFixed(3)}`);
