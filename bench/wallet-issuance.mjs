// Credentials issued per second through the whole OpenID4VCI pre-authorized code flow (offer,
// token, nonce, credential: four requests, each wallet with its own key and proof), beside the
// signing library alone on one thread (jose's one ES256 signature for an SD-JWT VC; @animo-id/mdoc
// for an mdoc) and the Express hello-world, all in this run.
//   npm run --silent -w @svc/bench wallet-issuance [-- --format sd-jwt|mdoc --seconds 8 --connections 8]
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { exportJWK, generateKeyPair } from 'jose';
import { helloWorlds, issuerBench, receiveCredential, walletRounds } from './lib.mjs';

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

const { database, token } = await issuerBench();

const hello = await helloWorlds(async (name, url) => {
  const r = await autocannon({ url, connections, duration: seconds });
  return { name, perSecond: r.requests.total / seconds };
});
const raw = Number(execFileSync(process.execPath, [here(format.baseline), String(seconds)]).toString());

const { perSecond, p50, p99 } = await walletRounds({
  database,
  connections,
  seconds,
  prepare: async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    return { jwk: await exportJWK(publicKey), privateKey };
  },
  round: (base, holder) => receiveCredential(base, token, format.configuration, holder),
});
console.log(`\nwallet issuance (OpenID4VCI, ${format.label}), ${connections} wallets at once, ${seconds} s each (${new Date().toISOString()})`);
for (const h of hello) console.log(`${h.name.padEnd(52)}${h.perSecond.toFixed(0).padStart(10)} req/s`);
console.log(`${format.alone.padEnd(52)}${raw.toFixed(0).padStart(10)} /s`);
console.log(`${'credentials through the whole flow (4 requests each)'.padEnd(52)}${perSecond.toFixed(1).padStart(10)} /s   p50 ${p50} ms, p99 ${p99} ms`);
console.log(`× signing alone: ${(perSecond / raw).toFixed(3)}; requests × hello-world: ${((perSecond * 4) / hello[0].perSecond).toFixed(3)}`);
