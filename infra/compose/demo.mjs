// docker-compose.yml's one-shot `demo` step, in the identity-provider image (whose admin CLI it
// runs): with SVC_DEMO=1, seeds demo data into a database that has no users yet and prints its
// secrets once, here (`docker compose logs demo`): the database keeps only their hashes. Without
// SVC_DEMO=1, or on a database that already has users, it changes nothing.
// Reads DATABASE_URL and the two key-encryption keys (the demo's first signing keys are sealed
// with them) as the services do: set, or from the file `<NAME>_FILE` names.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const say = (line = '') => process.stdout.write(`demo: ${line}\n`);

if (process.env.SVC_DEMO !== '1') {
  say('no demo data asked for (`SVC_DEMO=1 docker compose up` seeds an empty database and prints its secrets here)');
  process.exit(0);
}
const env = { ...process.env };
for (const name of ['DATABASE_URL', 'IDP_SIGNING_KEY_KEK', 'ISSUER_SIGNING_KEY_KEK']) {
  if (!env[name] && env[`${name}_FILE`]) env[name] = readFileSync(env[`${name}_FILE`], 'utf8').trim();
}
/** One admin CLI command (packages/admin), its JSON answer; its own error line goes to stderr and stops this step. */
const admin = (...args) =>
  JSON.parse(execFileSync(process.execPath, ['packages/admin/dist/cli.js', ...args], { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));

if (admin('user:list', '--limit', '1').users.length > 0) {
  say(
    'the database already has users: no demo data seeded (its secrets were printed when it was made: earlier in `docker compose logs demo`, until the containers are removed)',
  );
  process.exit(0);
}
const demo = admin('seed:demo');
const user = demo.users.palm_verified;
const client = demo.clients.confidential;
const lines = [
  '=== DEMO SECRETS (development only; shown once: the database keeps only their hashes) ===',
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
  `  curl -H 'X-SVC-API-Key: ${demo.api_keys.wallet_verify.key}' 'http://localhost:4001/v1/human/verify?wallet_address=${user.wallets[0]}'`,
  '  every endpoint by example: docs/identity-provider.md, docs/wallet-verify.md, docs/credential-issuer.md',
  '=== END OF DEMO SECRETS ===',
  // The same, whole, for tools (infra/smoke.sh runs its flow with it).
  `seed:demo ${JSON.stringify(demo)}`,
];
for (const line of lines) say(line);
