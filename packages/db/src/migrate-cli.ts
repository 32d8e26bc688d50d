// `node packages/db/dist/migrate-cli.js`: applies pending migrations to DATABASE_URL and prints
// one JSON line; exits 1 with one line on stderr when it cannot. What a deployment's one-shot
// migration step (compose service, Kubernetes Job) runs before the services start.
// With the three services' database passwords set (IDENTITY_PROVIDER_DB_PASSWORD,
// WALLET_VERIFY_DB_PASSWORD, CREDENTIAL_ISSUER_DB_PASSWORD) it then creates or updates one login
// per service with grants for that service's tables only (service-roles.ts), after every
// migration, so the grants follow the schema. `--roles-sql` prints that script instead, for a
// database administrator to run by hand.
// SVC_ENVIRONMENT=sandbox: the sandbox's database (its own roles, svc_sandbox_…, and grants);
// SVC_CREATE_DATABASE=1 creates the database first if it is missing.
// Each variable may come from a file instead, as the services read theirs: `<NAME>_FILE` names it
// when NAME is unset or empty (the Docker secrets convention; docker-compose.yml hands them so).
import { readFileSync } from 'node:fs';
import { migrate } from './migrate.js';
import { ensureDatabaseExists } from './sandbox-database.js';
import {
  applyServiceRoles,
  assertRolePasswords,
  ROLE_PASSWORD_VARIABLES,
  type RoleService,
  SERVICE_ROLES,
  SERVICE_ROLES_SQL,
  serviceRoleNames,
} from './service-roles.js';

if (process.argv.includes('--roles-sql')) {
  process.stdout.write(SERVICE_ROLES_SQL);
  process.exit(0);
}

/** NAME, else the trimmed content of the file NAME_FILE names; a file that cannot be read stops the step, naming it. */
function setting(name: string): string | undefined {
  const file = process.env[`${name}_FILE`];
  if (process.env[name] || !file) return process.env[name] || undefined;
  try {
    return readFileSync(file, 'utf8').trim() || undefined;
  } catch (err) {
    process.stderr.write(`Invalid configuration: ${name}_FILE: cannot read ${JSON.stringify(file)} (${(err as NodeJS.ErrnoException).code ?? 'error'})\n`);
    process.exit(1);
  }
}

const url = setting('DATABASE_URL');
if (!url || !/^postgres(ql)?:\/\//.test(url)) {
  process.stderr.write('Invalid configuration: DATABASE_URL: must be a postgres or postgresql URL\n');
  process.exit(1);
}
const values = Object.fromEntries(Object.values(ROLE_PASSWORD_VARIABLES).map((name) => [name, setting(name)]));
const passwords = Object.fromEntries(
  (Object.entries(ROLE_PASSWORD_VARIABLES) as [RoleService, string][]).filter(([, name]) => values[name]).map(([service, name]) => [service, values[name]!]),
);
const given = Object.keys(passwords).length;
if (given > 0 && given < 3) {
  const missing = Object.values(ROLE_PASSWORD_VARIABLES).filter((name) => !values[name]);
  process.stderr.write(`Invalid configuration: ${missing.join(', ')}: must be set with the other service database passwords (it is not set)\n`);
  process.exit(1);
}
try {
  // A password that cannot be used stops the step before it changes anything.
  assertRolePasswords(passwords);
} catch (err) {
  process.stderr.write(`Invalid configuration: ${(err as Error).message}\n`);
  process.exit(1);
}
try {
  // SVC_CREATE_DATABASE=1: make the database first when it is missing (the sandbox's, beside production's, in compose).
  if (process.env.SVC_CREATE_DATABASE === '1') await ensureDatabaseExists(url);
  const result = await migrate(url);
  // SVC_ENVIRONMENT=sandbox: a sandbox's database, whose identity provider also writes its test users,
  // under roles of its own (svc_sandbox_…): roles are the cluster's, and must never share a password with production's.
  const environment = process.env.SVC_ENVIRONMENT === 'sandbox' ? 'sandbox' : 'production';
  const names = environment === 'sandbox' ? serviceRoleNames('svc_sandbox') : SERVICE_ROLES;
  const roles = given ? (await applyServiceRoles(url, passwords, names, environment)).roles : undefined;
  process.stdout.write(`${JSON.stringify({ applied: result.applied, already_applied: result.alreadyApplied.length, ...(roles ? { roles } : {}) })}\n`);
} catch (err) {
  process.stderr.write(`migration failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
