// docker-compose.yml's one-shot `dev-secrets` step: every secret the stack needs, handed to each
// container as files (the Docker secrets convention, `<NAME>_FILE`), each container getting only
// its own. A value set in the environment (.env, the orchestrator) is used as given; any other is
// generated once and kept in the `secrets-store` volume, so restarts and `docker compose up` again
// keep them (`docker compose down -v` forgets them, with the database they opened).
// With SVC_GENERATE_SECRETS=0 (production) it generates nothing: a secret not given stops the stack.
//   node dev-secrets.mjs ROOT    ROOT holds store/ and one directory (volume) per container below
// Runs on Node.js alone (no dependencies): the base image of the services' images.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Every secret, generated unless given: 48 URL-safe characters (288 random bits), fit for URLs and the services' strength checks (the webhook secret: see generate). */
export const SECRETS = [
  'POSTGRES_PASSWORD',
  'IDENTITY_PROVIDER_DB_PASSWORD',
  'WALLET_VERIFY_DB_PASSWORD',
  'CREDENTIAL_ISSUER_DB_PASSWORD',
  'IDP_SECRET',
  'IDP_SIGNING_KEY_KEK',
  'ISSUER_SIGNING_KEY_KEK',
  'PAIRWISE_SECRET',
  // The identity provider's sandbox (docs/sandbox.md): a database, roles and secrets of its own.
  'SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD',
  'SANDBOX_WALLET_VERIFY_DB_PASSWORD',
  'SANDBOX_CREDENTIAL_ISSUER_DB_PASSWORD',
  'SANDBOX_IDP_SECRET',
  'SANDBOX_IDP_SIGNING_KEY_KEK',
  'SANDBOX_PAIRWISE_SECRET',
  // The credential issuer's client secret at the identity provider, and the secret the identity
  // provider signs its approval events with: the `link` step makes them the link's.
  'AUTHORIZATION_SERVER_CLIENT_SECRET',
  'AUTHORIZATION_SERVER_WEBHOOK_SECRET',
];

/** A new value of `name`: a webhook secret is `whsec_` and base64, as Standard Webhooks has it. */
const generate = (name) =>
  name === 'AUTHORIZATION_SERVER_WEBHOOK_SECRET' ? `whsec_${randomBytes(32).toString('base64')}` : randomBytes(36).toString('base64url');

// Where docker-compose.yml's PostgreSQL answers: owner `svc`, database `svc`; the service logins are
// the ones the migration step makes (packages/db/src/service-roles.ts).
// The sandbox's database sits beside it on the same server, `svc_sandbox`, with logins of its own.
const databaseUrl = (user, password, database = 'svc') => `postgresql://${user}:${encodeURIComponent(password)}@postgres:5432/${database}`;

/** What each container's volume holds, file name → value: each one only what it reads. */
export function filesFor(s) {
  return {
    postgres: { POSTGRES_PASSWORD: s.POSTGRES_PASSWORD },
    // The owner migrates and makes the three services' logins with these passwords.
    migrate: {
      DATABASE_URL: databaseUrl('svc', s.POSTGRES_PASSWORD),
      IDENTITY_PROVIDER_DB_PASSWORD: s.IDENTITY_PROVIDER_DB_PASSWORD,
      WALLET_VERIFY_DB_PASSWORD: s.WALLET_VERIFY_DB_PASSWORD,
      CREDENTIAL_ISSUER_DB_PASSWORD: s.CREDENTIAL_ISSUER_DB_PASSWORD,
    },
    // The admin CLI seeding demo data (SVC_DEMO=1): as the owner, sealing each service's first signing key.
    demo: {
      DATABASE_URL: databaseUrl('svc', s.POSTGRES_PASSWORD),
      IDP_SIGNING_KEY_KEK: s.IDP_SIGNING_KEY_KEK,
      ISSUER_SIGNING_KEY_KEK: s.ISSUER_SIGNING_KEY_KEK,
    },
    'identity-provider': {
      DATABASE_URL: databaseUrl('svc_identity_provider', s.IDENTITY_PROVIDER_DB_PASSWORD),
      IDP_SECRET: s.IDP_SECRET,
      IDP_SIGNING_KEY_KEK: s.IDP_SIGNING_KEY_KEK,
      PAIRWISE_SECRET: s.PAIRWISE_SECRET,
    },
    'wallet-verify': {
      DATABASE_URL: databaseUrl('svc_wallet_verify', s.WALLET_VERIFY_DB_PASSWORD),
      PAIRWISE_SECRET: s.PAIRWISE_SECRET,
    },
    'credential-issuer': {
      DATABASE_URL: databaseUrl('svc_credential_issuer', s.CREDENTIAL_ISSUER_DB_PASSWORD),
      ISSUER_SIGNING_KEY_KEK: s.ISSUER_SIGNING_KEY_KEK,
      AUTHORIZATION_SERVER_CLIENT_SECRET: s.AUTHORIZATION_SERVER_CLIENT_SECRET,
      AUTHORIZATION_SERVER_WEBHOOK_SECRET: s.AUTHORIZATION_SERVER_WEBHOOK_SECRET,
    },
    // The admin CLI's issuer:link: as the owner, sealing the webhook secret as the identity provider does.
    link: {
      DATABASE_URL: databaseUrl('svc', s.POSTGRES_PASSWORD),
      IDP_SIGNING_KEY_KEK: s.IDP_SIGNING_KEY_KEK,
      AUTHORIZATION_SERVER_CLIENT_SECRET: s.AUTHORIZATION_SERVER_CLIENT_SECRET,
      AUTHORIZATION_SERVER_WEBHOOK_SECRET: s.AUTHORIZATION_SERVER_WEBHOOK_SECRET,
    },
    // The sandbox's migration: as the owner, on its own database, making the sandbox's roles.
    'migrate-sandbox': {
      DATABASE_URL: databaseUrl('svc', s.POSTGRES_PASSWORD, 'svc_sandbox'),
      IDENTITY_PROVIDER_DB_PASSWORD: s.SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD,
      WALLET_VERIFY_DB_PASSWORD: s.SANDBOX_WALLET_VERIFY_DB_PASSWORD,
      CREDENTIAL_ISSUER_DB_PASSWORD: s.SANDBOX_CREDENTIAL_ISSUER_DB_PASSWORD,
    },
    // The sandbox identity provider: nothing of production's.
    'identity-provider-sandbox': {
      DATABASE_URL: databaseUrl('svc_sandbox_identity_provider', s.SANDBOX_IDENTITY_PROVIDER_DB_PASSWORD, 'svc_sandbox'),
      IDP_SECRET: s.SANDBOX_IDP_SECRET,
      IDP_SIGNING_KEY_KEK: s.SANDBOX_IDP_SIGNING_KEY_KEK,
      PAIRWISE_SECRET: s.SANDBOX_PAIRWISE_SECRET,
    },
  };
}

/** Replaces `path` whole (a reader never sees half a file), readable by every user: each volume is mounted only where it belongs. */
function put(path, value) {
  const temporary = `${path}.partial`;
  // One a crashed run left is read-only, even to root without capabilities: made anew.
  rmSync(temporary, { force: true });
  writeFileSync(temporary, value, { mode: 0o444 });
  renameSync(temporary, path);
}

/** Resolves every secret (given, kept or generated) and writes each container's files; returns what it did, one line each. */
export function writeSecrets(root, env = process.env) {
  const store = join(root, 'store');
  chmodSync(store, 0o700);
  const values = {};
  const report = [];
  const missing = [];
  for (const name of SECRETS) {
    const kept = join(store, name);
    if (env[name]) {
      values[name] = env[name];
      report.push(`${name}: from the environment`);
    } else if (existsSync(kept)) {
      values[name] = readFileSync(kept, 'utf8');
      report.push(`${name}: kept`);
    } else if (env.SVC_GENERATE_SECRETS === '0') {
      missing.push(name);
    } else {
      values[name] = generate(name);
      // Exclusive: two runs at once never keep different values.
      writeFileSync(kept, values[name], { mode: 0o400, flag: 'wx' });
      report.push(`${name}: generated`);
    }
  }
  if (missing.length) throw new Error(`SVC_GENERATE_SECRETS=0 and not set: ${missing.join(', ')} (set them in .env: see .env.example)`);
  for (const [container, files] of Object.entries(filesFor(values))) {
    const dir = join(root, container);
    for (const [name, value] of Object.entries(files)) put(join(dir, name), value);
    // A file no longer meant for this container goes: it keeps only what it reads.
    for (const name of readdirSync(dir)) if (!(name in files)) unlinkSync(join(dir, name));
  }
  return report;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const report = writeSecrets(process.argv[2] ?? '/secrets');
    for (const line of report) process.stdout.write(`dev-secrets: ${line}\n`);
    if (report.some((line) => !line.endsWith('from the environment'))) {
      process.stdout.write(
        'dev-secrets: generated secrets are for development; in production set each in .env or the orchestrator (.env.example lists them) and SVC_GENERATE_SECRETS=0\n',
      );
    }
  } catch (err) {
    process.stderr.write(`dev-secrets: ${err.message}\n`);
    process.exit(1);
  }
}
