import { webhookEventTypesWrittenBy } from '@svc/schemas';
import pg from 'pg';

/**
 * One PostgreSQL login per service, each granted only what that service's code uses, so one
 * service's compromise does not hand over the others' data: wallet-verify cannot read sessions,
 * tokens or signing keys, and the credential issuer cannot read the identity provider's signing
 * keys (row-level security on "SigningKey", whose rows both services keep, split by `service`).
 * The owner (the login that migrates) keeps everything; the admin CLI runs as the owner too.
 */
export const SERVICE_ROLES = serviceRoleNames('svc');

/** `<prefix>_identity_provider`, `<prefix>_wallet_verify`, `<prefix>_credential_issuer`. */
export function serviceRoleNames(prefix: string) {
  if (!/^[a-z][a-z0-9_]{0,30}$/.test(prefix)) throw new Error('the role prefix must be lowercase letters, digits and _ (at most 31)');
  return {
    'identity-provider': `${prefix}_identity_provider`,
    'wallet-verify': `${prefix}_wallet_verify`,
    'credential-issuer': `${prefix}_credential_issuer`,
  } as const;
}

export type RoleService = keyof typeof SERVICE_ROLES;

/** The variables that hold each role's password (the migration step sets them). */
export const ROLE_PASSWORD_VARIABLES: Record<RoleService, string> = {
  'identity-provider': 'IDENTITY_PROVIDER_DB_PASSWORD',
  'wallet-verify': 'WALLET_VERIFY_DB_PASSWORD',
  'credential-issuer': 'CREDENTIAL_ISSUER_DB_PASSWORD',
};

// The columns the API-key check reads and the one it writes (ApiKeyAuthenticator in @svc/api-keys).
const API_KEY_READ = '"id", "organizationId", "keyHash", "status", "permissions", "hourlyLimit", "burstLimit", "lastUsedAt"';

// What a developer sees of an organization's API keys (the identity provider's console): all but the hash.
const API_KEY_LIST =
  '"id", "organizationId", "prefix", "name", "status", "permissions", "hourlyLimit", "burstLimit", "lastUsedAt", "createdAt", "disabledAt", "rotatedFromId"';

/** The webhook event types a service's role may write into the outbox (the registry in @svc/schemas says whose they are), as SQL literals. */
function eventTypesOf(service: Exclude<RoleService, 'identity-provider'>): string {
  return webhookEventTypesWrittenBy(service)
    .map((type) => `'${type}'`)
    .join(', ');
}

/**
 * The roles and their grants, run as the database owner after the migrations, in one
 * transaction. Idempotent: a role that exists is kept, every privilege is revoked and granted
 * again (a grant dropped here is dropped from the database too), the policies are replaced. A
 * table a later migration adds is reachable by no service until it is granted here.
 */
export function serviceRolesSql(roles: Record<RoleService, string> = SERVICE_ROLES, environment: 'production' | 'sandbox' = 'production'): string {
  if (!Object.values(roles).every((r) => /^[a-z][a-z0-9_]{0,62}$/.test(r))) throw new Error('role names must be lowercase letters, digits and _');
  const [idp, verify, issuer] = [roles['identity-provider'], roles['wallet-verify'], roles['credential-issuer']].map((r) => `"${r}"`);
  return `
-- Roles are shared by the whole cluster: made once, by whichever run gets there first.
DO $roles$
DECLARE r text;
BEGIN
  FOREACH r IN ARRAY ARRAY['${roles['identity-provider']}', '${roles['wallet-verify']}', '${roles['credential-issuer']}'] LOOP
    IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = r) THEN
      BEGIN
        EXECUTE format('CREATE ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT', r);
      EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL; -- made meanwhile by a concurrent run
      END;
    END IF;
    EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I', current_database(), r);
    EXECUTE format('GRANT USAGE ON SCHEMA public TO %I', r);
    -- Start from nothing (table and column privileges alike), then grant below.
    EXECUTE format('REVOKE ALL ON ALL TABLES IN SCHEMA public FROM %I', r);
  END LOOP;
  -- No temporary tables in this database for anyone but its owner: no service needs them, and a
  -- session's own objects must never shadow the tables a SECURITY DEFINER function writes.
  EXECUTE format('REVOKE TEMPORARY ON DATABASE %I FROM PUBLIC', current_database());
END
$roles$;

-- Identity provider: users, organizations, clients, authorizations, codes, tokens,
-- sessions, and its own signing keys. Developers sign up, register their applications and make
-- their API keys and tokens themselves (the console and /v2/developer); a person's verified data
-- (wallets, credentials) is the admin CLI's to write, except in a sandbox, whose test users are
-- made and deleted through /v2/sandbox.
GRANT SELECT, INSERT ON "User" TO ${idp};
GRANT SELECT ON "Wallet", "UserCredential" TO ${idp};
GRANT SELECT, INSERT, UPDATE ON "Organization", "Application" TO ${idp};
-- API keys as their organization's developers manage them: made, listed and disabled, never their hashes read.
GRANT SELECT (${API_KEY_LIST}), INSERT ON "ApiKey" TO ${idp};
GRANT UPDATE ("status", "disabledAt") ON "ApiKey" TO ${idp};
-- Their use per hour, as the services that check them count it (its housekeeping drops old hours).
GRANT SELECT, DELETE ON "ApiKeyUsage" TO ${idp};
GRANT SELECT, INSERT, UPDATE, DELETE ON "OrganizationMember", "Invitation", "PersonalAccessToken", "InitialAccessToken" TO ${idp};
-- Sign-ups waiting for their mailed link.
GRANT SELECT, INSERT, UPDATE, DELETE ON "PendingSignup" TO ${idp};
-- Password resets waiting for their mailed link, and the one column of a user a reset changes
-- (with its change stamp): never the palm or verified-data columns, which only the admin CLI writes.
GRANT SELECT, INSERT, UPDATE, DELETE ON "PasswordReset" TO ${idp};
GRANT UPDATE ("passwordHash", "updatedAt") ON "User" TO ${idp};
-- The local outbox of a deployment that sends no mail (/dev/outbox).
GRANT SELECT, INSERT, DELETE ON "LocalMail" TO ${idp};
GRANT SELECT, INSERT, UPDATE ON "Session", "AuthorizationCode", "RefreshToken", "SigningKey" TO ${idp};
-- Passkeys, which each person adds, renames and deletes themselves.
GRANT SELECT, INSERT, UPDATE, DELETE ON "Passkey" TO ${idp};
GRANT SELECT, INSERT, UPDATE, DELETE ON "Authorization", "RevokedAccessToken" TO ${idp};
-- Webhooks: the endpoints its developers manage, the events it writes, and the deliveries it makes.
GRANT SELECT, INSERT, UPDATE, DELETE ON "WebhookEndpoint" TO ${idp};
GRANT SELECT, INSERT, DELETE ON "WebhookEvent" TO ${idp};
GRANT SELECT, UPDATE, DELETE ON "WebhookDelivery" TO ${idp};
-- Actions its developers register, and the proofs of them: counted (insert, or add one), never
-- deleted one by one (they go with their action, by the foreign key's cascade).
GRANT SELECT, INSERT, UPDATE, DELETE ON "Action" TO ${idp};
GRANT SELECT, INSERT, UPDATE ("count", "signalHash", "provedAt") ON "ActionProof" TO ${idp};
${
  environment === 'sandbox'
    ? `-- The sandbox's test users, with their wallets and verified data, made and deleted on request.
GRANT UPDATE, DELETE ON "User" TO ${idp};
GRANT INSERT, UPDATE, DELETE ON "Wallet", "UserCredential" TO ${idp};
-- Its actions' proofs, forgotten on request so that tests can prove them again.
GRANT DELETE ON "ActionProof" TO ${idp};`
    : ''
}

-- Wallet verify: who owns a wallet and whether they are palm-verified, and its API keys
-- (reading them, stamping last use). Column grants: not a user's email, password hash or any
-- other column; no sessions, tokens, signing keys, credentials.
GRANT SELECT ("id", "address", "userId") ON "Wallet" TO ${verify};
GRANT SELECT ("id", "palmVerified") ON "User" TO ${verify};
GRANT SELECT (${API_KEY_READ}) ON "ApiKey" TO ${verify};
GRANT UPDATE ("lastUsedAt") ON "ApiKey" TO ${verify};
GRANT SELECT, INSERT, UPDATE ("count") ON "ApiKeyUsage" TO ${verify};
-- Its events (an API key at its limit) go into the outbox; it reads no endpoint, secret or delivery.
GRANT INSERT ("organizationId", "type", "data", "subject") ON "WebhookEvent" TO ${verify};

-- Credential issuer: the credentials it issued, their status lists, its own signing
-- keys, and its API keys. Nothing of users, sessions or tokens.
GRANT SELECT, INSERT, UPDATE ON "IssuedCredential", "StatusList", "SigningKey" TO ${issuer};
-- Its credential offers for wallets (OpenID4VCI), spent and expired ones purged by itself.
GRANT SELECT, INSERT, UPDATE, DELETE ON "CredentialOffer" TO ${issuer};
-- Its presentation requests to wallets (OpenID4VP) and their results, old ones purged by itself.
GRANT SELECT, INSERT, UPDATE, DELETE ON "PresentationRequest" TO ${issuer};
GRANT SELECT (${API_KEY_READ}) ON "ApiKey" TO ${issuer};
GRANT UPDATE ("lastUsedAt") ON "ApiKey" TO ${issuer};
GRANT SELECT, INSERT, UPDATE ("count") ON "ApiKeyUsage" TO ${issuer};
-- Its events (credentials issued and revoked, presentations answered) go into the outbox; it reads no endpoint, secret or delivery.
GRANT INSERT ("organizationId", "type", "data", "subject") ON "WebhookEvent" TO ${issuer};

-- API key usage: the services that check keys add to the counts; the identity provider reads them
-- and drops only hours older than a week (housekeeping), never a count still shown.
ALTER TABLE "ApiKeyUsage" ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS "ApiKeyUsage_read" ON "ApiKeyUsage";
CREATE POLICY "ApiKeyUsage_read" ON "ApiKeyUsage" FOR SELECT USING (true);
DROP POLICY IF EXISTS "ApiKeyUsage_count" ON "ApiKeyUsage";
CREATE POLICY "ApiKeyUsage_count" ON "ApiKeyUsage" FOR INSERT TO ${verify}, ${issuer} WITH CHECK (true);
DROP POLICY IF EXISTS "ApiKeyUsage_add" ON "ApiKeyUsage";
CREATE POLICY "ApiKeyUsage_add" ON "ApiKeyUsage" FOR UPDATE TO ${verify}, ${issuer} USING (true);
DROP POLICY IF EXISTS "ApiKeyUsage_purge" ON "ApiKeyUsage";
CREATE POLICY "ApiKeyUsage_purge" ON "ApiKeyUsage" FOR DELETE TO ${idp} USING ("hour" < now() - interval '7 days');

-- The webhook outbox: each service writes only its own kinds of event (the identity provider any),
-- never a test event to one endpoint or a time of its choosing (column grants above).
ALTER TABLE "WebhookEvent" ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS "WebhookEvent_identity_provider" ON "WebhookEvent";
CREATE POLICY "WebhookEvent_identity_provider" ON "WebhookEvent" TO ${idp} USING (true) WITH CHECK (true);
DROP POLICY IF EXISTS "WebhookEvent_wallet_verify" ON "WebhookEvent";
CREATE POLICY "WebhookEvent_wallet_verify" ON "WebhookEvent" FOR INSERT TO ${verify} WITH CHECK ("type" IN (${eventTypesOf('wallet-verify')}));
DROP POLICY IF EXISTS "WebhookEvent_credential_issuer" ON "WebhookEvent";
CREATE POLICY "WebhookEvent_credential_issuer" ON "WebhookEvent" FOR INSERT TO ${issuer}
  WITH CHECK ("type" IN (${eventTypesOf('credential-issuer')}));

-- Both services keep their signing keys in "SigningKey": each role sees and writes only its own
-- service's rows, so the issuer cannot even read the identity provider's sealed RSA keys. The
-- owner (migrations, admin CLI) is not subject to these policies.
ALTER TABLE "SigningKey" ENABLE ROW LEVEL SECURITY;
DROP POLICY IF EXISTS "SigningKey_identity_provider" ON "SigningKey";
CREATE POLICY "SigningKey_identity_provider" ON "SigningKey" TO ${idp}
  USING ("service" = 'identity-provider') WITH CHECK ("service" = 'identity-provider');
DROP POLICY IF EXISTS "SigningKey_credential_issuer" ON "SigningKey";
CREATE POLICY "SigningKey_credential_issuer" ON "SigningKey" TO ${issuer}
  USING ("service" = 'credential-issuer') WITH CHECK ("service" = 'credential-issuer');
`;
}

/** The script with the default role names, as `migrate-cli.js --roles-sql` prints it. */
export const SERVICE_ROLES_SQL = serviceRolesSql();

// URL-safe characters only: each password also sits in its service's DATABASE_URL.
const PASSWORD = /^[A-Za-z0-9_.~-]{16,200}$/;

/** Throws, naming the variable, for a password that cannot go into a URL or ALTER ROLE as it is. */
export function assertRolePasswords(passwords: Partial<Record<RoleService, string>>): void {
  for (const [service, password] of Object.entries(passwords) as [RoleService, string][]) {
    if (!PASSWORD.test(password)) {
      throw new Error(`${ROLE_PASSWORD_VARIABLES[service]} must be 16 to 200 letters, digits or _ . ~ - (it goes into a URL), e.g. \`openssl rand -hex 24\``);
    }
  }
}

/** Reads the database's mark (its comment); any login may read it. */
export const ENVIRONMENT_MARK_SQL = "SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = current_database()";

/** The environment a database's comment names, if it names one. */
export function environmentMarked(note: string | null | undefined): 'production' | 'sandbox' | undefined {
  return /^svc-environment=(production|sandbox)$/.exec(note ?? '')?.[1] as 'production' | 'sandbox' | undefined;
}

/** Marks `databaseUrl` as serving `environment` (as its owner), or throws when it is marked as the other's. */
export async function markDatabaseEnvironment(databaseUrl: string, environment: 'production' | 'sandbox'): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await markEnvironment(client, environment);
  } finally {
    await client.end();
  }
}

/**
 * A database remembers which environment it serves (a comment on it, written the first time its
 * roles are applied), so the sandbox's wider grants can never be applied to production's database
 * by a stray SVC_ENVIRONMENT, nor production's to the sandbox's.
 */
async function markEnvironment(client: pg.Client, environment: 'production' | 'sandbox'): Promise<void> {
  const { rows } = await client.query<{ note: string | null }>(
    "SELECT shobj_description(oid, 'pg_database') AS note FROM pg_database WHERE datname = current_database()",
  );
  const marked = /^svc-environment=(production|sandbox)$/.exec(rows[0]?.note ?? '')?.[1];
  if (marked && marked !== environment) {
    throw new Error(
      `this database serves the ${marked} environment: run with SVC_ENVIRONMENT=${marked}, or point DATABASE_URL at the ${environment}'s database`,
    );
  }
  if (!marked) {
    const { rows: sql } = await client.query<{ sql: string }>("SELECT format('COMMENT ON DATABASE %I IS %L', current_database(), $1::text) AS sql", [
      `svc-environment=${environment}`,
    ]);
    await client.query(sql[0]!.sql);
  }
}

/**
 * Creates the service roles and grants them their tables (SERVICE_ROLES_SQL) on `databaseUrl`,
 * as its owner, and sets the passwords given. Idempotent; safe beside running services (one
 * transaction: no moment without the grants).
 */
export async function applyServiceRoles(
  databaseUrl: string,
  passwords: Partial<Record<RoleService, string>> = {},
  /** Other role names than svc_…: tests, or several deployments in one cluster. */
  roles: Record<RoleService, string> = SERVICE_ROLES,
  /** A sandbox's database: its identity provider also writes test users' wallets and data. */
  environment: 'production' | 'sandbox' = 'production',
): Promise<{ roles: string[] }> {
  assertRolePasswords(passwords);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('BEGIN');
    await markEnvironment(client, environment);
    await client.query(serviceRolesSql(roles, environment));
    for (const [service, password] of Object.entries(passwords) as [RoleService, string][]) {
      const { rows } = await client.query<{ sql: string }>('SELECT format($$ALTER ROLE %I PASSWORD %L$$, $1::text, $2::text) AS sql', [
        roles[service],
        password,
      ]);
      await client.query(rows[0]!.sql);
    }
    await client.query('COMMIT');
    return { roles: Object.values(roles) };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
