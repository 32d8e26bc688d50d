import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createApiKey, createClient, createOrg, createUser, type AdminContext } from '@svc/admin';
import { applyServiceRoles, createPrismaClient, type Db, migrate, type RoleService, serviceRoleNames } from '@svc/db';
import {
  authorizeThroughApi,
  cleanEnv,
  freePort,
  randomHex40,
  type StartedService,
  startServer,
  startService,
  testRedisUrl,
  uniqueEmail,
  uniqueNamespace,
  waitFor,
} from '@svc/testkit';
import { toChecksumAddress } from '@svc/schemas';
import pg from 'pg';

// A database of its own, migrated, with the roles script applied: the services then run as their
// own logins, as a deployment with per-service roles runs them. Role names are this run's own
// (roles are cluster-wide), dropped again at the end.
const server = new URL(process.env.SVC_TEST_SERVER_URL!);
const database = `${process.env.SVC_TEST_DATABASE}_roles`;
const roles = serviceRoleNames(`t${randomBytes(4).toString('hex')}`);
const passwords = { 'identity-provider': secret(), 'wallet-verify': secret(), 'credential-issuer': secret() };
const REDIRECT = 'https://app.example/callback';

function secret() {
  return randomBytes(24).toString('base64url');
}

/** The database's URL as `user` (the owner: the server URL's own login). */
function urlAs(service?: RoleService): string {
  const url = new URL(server);
  url.pathname = `/${database}`;
  if (service) {
    url.username = roles[service];
    url.password = passwords[service];
  }
  return url.toString();
}

async function asRole<T>(service: RoleService, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: urlAs(service) });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The SQLSTATE a statement fails with, or 'ok'. */
const outcome = (client: pg.Client, sql: string, values: unknown[] = []) =>
  client.query(sql, values).then(
    () => 'ok',
    (err: { code?: string }) => err.code,
  );
const PERMISSION_DENIED = '42501';

const owner = new pg.Client({ connectionString: server.toString() });
let db: Db;
const services = {} as Record<RoleService, StartedService>;
let arranged: Awaited<ReturnType<typeof arrange>>;

async function arrange() {
  const ctx: AdminContext = { db, now: () => new Date() };
  const password = 'correct horse battery';
  const wallet = toChecksumAddress(randomHex40());
  const user = await createUser(ctx, { email: uniqueEmail('roles'), password, wallets: [wallet], palmVerified: true });
  const org = await createOrg(ctx, { name: 'Roles Org', ownerEmail: user.email });
  const key = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify,credentials:issue' });
  const client = await createClient(ctx, { org: org.id, name: 'Roles App', redirectUris: [REDIRECT], scopes: 'openid identity:read' });
  return { user: { ...user, password }, wallet, key, client, org };
}

beforeAll(async () => {
  await owner.connect();
  await owner.query(`CREATE DATABASE ${pg.escapeIdentifier(database)}`);
  await migrate(urlAs());
  await applyServiceRoles(urlAs(), passwords, roles);
  // Idempotent: a second run (the next release's migration step) changes nothing and fails on nothing.
  await applyServiceRoles(urlAs(), passwords, roles);
  db = createPrismaClient(urlAs(), { poolSize: 2 });
  arranged = await arrange();
  const redis = testRedisUrl();
  const shared = { LOG_LEVEL: 'warn', REDIS_KEY_PREFIX: uniqueNamespace('roles'), ...(redis ? { REDIS_URL: redis } : {}) };
  // Each service gets its own login and its own secrets only: the others' are blanked.
  const [idp, verify, issuer] = await Promise.all([
    startService('identity-provider', { ...shared, DATABASE_URL: urlAs('identity-provider'), ISSUER_SIGNING_KEY_KEK: '', IDP_SECRET: secret() + secret() }),
    startService('wallet-verify', {
      ...shared,
      DATABASE_URL: urlAs('wallet-verify'),
      IDP_SIGNING_KEY_KEK: '',
      ISSUER_SIGNING_KEY_KEK: '',
      API_KEY_LAST_USED_FLUSH_SECONDS: '1',
    }),
    startService('credential-issuer', {
      ...shared,
      DATABASE_URL: urlAs('credential-issuer'),
      IDP_SIGNING_KEY_KEK: '',
      PAIRWISE_SECRET: '',
      SIGNING_WORKERS: '1',
    }),
  ]);
  Object.assign(services, { 'identity-provider': idp, 'wallet-verify': verify, 'credential-issuer': issuer });
}, 90_000);

afterAll(async () => {
  await Promise.all(Object.values(services).map((s) => s.stop()));
  await db?.$disconnect();
  await owner.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(database)} WITH (FORCE)`);
  for (const role of Object.values(roles)) await owner.query(`DROP ROLE IF EXISTS ${pg.escapeIdentifier(role)}`);
  await owner.end();
});

const call = (service: RoleService, path: string, init?: RequestInit) => fetch(`${services[service].url}${path}`, init);

describe('each service on its own PostgreSQL role', () => {
  it.each(['identity-provider', 'wallet-verify', 'credential-issuer'] as const)('%s starts and is ready with only its own grants', async (service) => {
    // Ready once its first connections answer (a check has 2 s; longer on a loaded machine).
    let ready = await call(service, '/ready');
    const answered = async () => {
      ready = await call(service, '/ready');
      return ready.status === 200;
    };
    await waitFor(answered, 30_000, `${service} to be ready`).catch(() => undefined);
    expect({ service, status: ready.status, body: await ready.json() }).toMatchObject({ service, status: 200 });
  });

  it('wallet-verify answers a verification and records the key’s use', async () => {
    const res = await call('wallet-verify', `/v1/human/verify?wallet_address=${arranged.wallet}`, { headers: { 'x-svc-api-key': arranged.key.key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ is_human: true, user_id: expect.any(String) });
    const deadline = Date.now() + 5_000;
    while (!(await db.apiKey.findUniqueOrThrow({ where: { id: arranged.key.id } })).lastUsedAt && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    expect((await db.apiKey.findUniqueOrThrow({ where: { id: arranged.key.id } })).lastUsedAt).not.toBeNull();
    // …and its requests this hour, under its own role (the count's grant and policies).
    while ((await db.apiKeyUsage.count({ where: { apiKeyId: arranged.key.id } })) === 0 && Date.now() < deadline + 5_000)
      await new Promise((r) => setTimeout(r, 100));
    expect((await db.apiKeyUsage.findFirstOrThrow({ where: { apiKeyId: arranged.key.id } })).count).toBeGreaterThanOrEqual(1);
  });

  it('the identity provider resets a forgotten password by its mailed link', async () => {
    const email = uniqueEmail('roles-reset');
    await createUser({ db, now: () => new Date() }, { email, password: 'the forgotten password' });
    const post = (path: string, body: object) =>
      call('identity-provider', path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/auth/password-reset', { email })).status).toBe(202);
    // Mailed just after the answer, into the local outbox (PUBLIC_URL is this machine's).
    let link: string | undefined;
    const mailed = async () => {
      const kept = (await (await call('identity-provider', `/dev/outbox.json?to=${encodeURIComponent(email)}`)).json()) as { items: { links: string[] }[] };
      link = kept.items[0]?.links[0];
      return link !== undefined;
    };
    await waitFor(mailed, 10_000, 'the reset mail');
    const confirmed = await post('/auth/password-reset/confirm', { token: new URL(link!).searchParams.get('token'), password: 'the new password' });
    expect(confirmed.status).toBe(200);
    expect((await post('/auth/session', { email, password: 'the new password' })).status).toBe(200);
  });

  it('the identity provider signs in, authorizes, issues tokens and finds the user by wallet-verify’s user_id', async () => {
    const issuer = services['identity-provider'].url;
    const client = { clientId: arranged.client.client_id, clientSecret: arranged.client.client_secret, redirectUri: REDIRECT };
    const [tokens] = await authorizeThroughApi(issuer, arranged.user, client, 'openid identity:read');
    const userinfo = await call('identity-provider', '/v2/userinfo', { headers: { authorization: `Bearer ${tokens!.access_token}` } });
    expect(userinfo.status).toBe(200);
    const verified = (await (
      await call('wallet-verify', `/v1/human/verify?wallet_address=${arranged.wallet}`, { headers: { 'x-svc-api-key': arranged.key.key } })
    ).json()) as { user_id: string };
    const userToken = await call('identity-provider', '/oauth/client/user-token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_id: client.clientId, client_secret: client.clientSecret, user_id: verified.user_id }),
    });
    expect(userToken.status).toBe(200);
  });

  it('the identity provider counts a proof of an action, writes its event, and answers the check', async () => {
    const issuer = services['identity-provider'].url;
    const client = { clientId: arranged.client.client_id, clientSecret: arranged.client.client_secret, redirectUri: REDIRECT };
    await db.action.create({ data: { organizationId: arranged.org.id, name: 'roles-vote' } });
    const [tokens] = await authorizeThroughApi(issuer, arranged.user, client, 'openid identity:read');
    const prove = () =>
      call('identity-provider', '/v2/actions/roles-vote/proofs', {
        method: 'POST',
        headers: { authorization: `Bearer ${tokens!.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ signal: 'yes' }),
      });
    const proved = await prove();
    expect(proved.status).toBe(201);
    const { nullifier } = (await proved.json()) as { nullifier: string };
    expect((await prove()).status).toBe(409);
    const basic = `Basic ${Buffer.from(`${client.clientId}:${client.clientSecret}`).toString('base64')}`;
    const check = await call('identity-provider', `/v2/actions/roles-vote/proofs/${nullifier}`, { headers: { authorization: basic } });
    expect(await check.json()).toMatchObject({ nullifier, count: 1 });
    expect(await db.webhookEvent.count({ where: { organizationId: arranged.org.id, type: 'action.proved' } })).toBe(1);
  });

  it('the credential issuer issues a credential, with a signing key it made itself', async () => {
    const res = await call('credential-issuer', '/credentials/issue', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-token': arranged.key.key },
      body: JSON.stringify({ subject_address: arranged.wallet, claims: { kyc_passed: true } }),
    });
    expect(res.status).toBe(200);
    expect(await db.signingKey.count({ where: { service: 'credential-issuer' } })).toBeGreaterThan(0);
  });
});

describe('which environment a database serves', () => {
  it('is remembered, so a stray SVC_ENVIRONMENT=sandbox cannot widen production’s grants', async () => {
    await expect(applyServiceRoles(urlAs(), {}, roles, 'sandbox')).rejects.toThrow(
      /this database serves the production environment: run with SVC_ENVIRONMENT=production/,
    );
    // Nothing changed: production's identity provider still cannot delete users.
    await asRole('identity-provider', async (c) => expect(await outcome(c, 'DELETE FROM "User"')).toBe(PERMISSION_DENIED));
  });

  it('keeps a sandbox identity provider from serving production’s database: it refuses to start, naming why', async () => {
    const sandbox = startServer(
      'identity-provider',
      cleanEnv({
        SVC_ENVIRONMENT: 'sandbox',
        DATABASE_URL: urlAs('identity-provider'),
        PORT: String(await freePort()),
        IDP_SECRET: secret() + secret(),
        LOG_LEVEL: 'warn',
      }),
    );
    expect(await sandbox.exited).toBe(1);
    expect(sandbox.output()).toContain("SVC_ENVIRONMENT is sandbox, but DATABASE_URL names the production's database");
  });
});

describe('what each role is refused', () => {
  it('wallet-verify’s role reads no sessions, tokens, signing keys, credentials, nor users’ other columns', async () => {
    await asRole('wallet-verify', async (c) => {
      for (const table of [
        'Session',
        'RefreshToken',
        'AuthorizationCode',
        'Authorization',
        'RevokedAccessToken',
        'SigningKey',
        'IssuedCredential',
        'Application',
      ]) {
        expect([table, await outcome(c, `SELECT 1 FROM "${table}" LIMIT 1`)]).toEqual([table, PERMISSION_DENIED]);
      }
      expect(await outcome(c, 'SELECT "email", "passwordHash" FROM "User" LIMIT 1')).toBe(PERMISSION_DENIED);
      expect(await outcome(c, 'SELECT "id", "palmVerified" FROM "User" LIMIT 1')).toBe('ok');
      expect(await outcome(c, 'UPDATE "User" SET "palmVerified" = true')).toBe(PERMISSION_DENIED);
      expect(await outcome(c, 'UPDATE "ApiKey" SET "status" = \'active\'')).toBe(PERMISSION_DENIED);
    });
  });

  it('the other services write only their own webhook events into the outbox, and read nothing of webhooks', async () => {
    const org = arranged.org.id;
    const insert = (type: string, extra = '') =>
      `INSERT INTO "WebhookEvent" ("organizationId", "type", "data"${extra ? ', "endpointId"' : ''}) VALUES ('${org}', '${type}', '{}'${extra})`;
    const RLS_REFUSED = '42501';
    await asRole('wallet-verify', async (c) => {
      expect(await outcome(c, insert('api_key.limit_reached'))).toBe('ok');
      expect(await outcome(c, insert('authorization.revoked'))).toBe(RLS_REFUSED);
      expect(await outcome(c, insert('api_key.limit_reached', `, '${randomUUID()}'`))).toBe(PERMISSION_DENIED);
      for (const table of ['WebhookEvent', 'WebhookEndpoint', 'WebhookDelivery']) {
        expect([table, await outcome(c, `SELECT 1 FROM "${table}" LIMIT 1`)]).toEqual([table, PERMISSION_DENIED]);
      }
      // No temporary table can stand in for one the fan-out trigger writes as the owner.
      expect(await outcome(c, 'CREATE TEMP TABLE "WebhookDelivery" (id int)')).toBe(PERMISSION_DENIED);
    });
    await asRole('credential-issuer', async (c) => {
      expect(await outcome(c, insert('credential.revoked'))).toBe('ok');
      expect(await outcome(c, insert('authorization.approved'))).toBe(RLS_REFUSED);
      expect(await outcome(c, 'SELECT secret FROM "WebhookEndpoint" LIMIT 1')).toBe(PERMISSION_DENIED);
    });
  });

  it('the credential issuer’s role cannot see, let alone write, the identity provider’s signing keys', async () => {
    // The identity provider made its key on first use (the flow above, or readiness).
    expect(await db.signingKey.count({ where: { service: 'identity-provider' } })).toBeGreaterThan(0);
    await asRole('credential-issuer', async (c) => {
      expect((await c.query(`SELECT kid FROM "SigningKey" WHERE service = 'identity-provider'`)).rowCount).toBe(0);
      expect((await c.query(`SELECT kid FROM "SigningKey" WHERE service = 'credential-issuer'`)).rowCount).toBeGreaterThan(0);
      expect(await outcome(c, `UPDATE "SigningKey" SET service = 'identity-provider'`)).toBe(PERMISSION_DENIED);
      expect(
        await outcome(
          c,
          `INSERT INTO "SigningKey" (kid, service, algorithm, "publicKey", "privateKey") VALUES ('forged', 'identity-provider', 'RS256', '{}', '{}')`,
        ),
      ).toBe(PERMISSION_DENIED);
      for (const table of ['User', 'Session', 'RefreshToken', 'Authorization', 'Application', 'Wallet']) {
        expect([table, await outcome(c, `SELECT 1 FROM "${table}" LIMIT 1`)]).toEqual([table, PERMISSION_DENIED]);
      }
    });
  });

  it('the identity provider’s role cannot read the issuer’s keys, credentials or API key hashes, nor write verified data', async () => {
    await asRole('identity-provider', async (c) => {
      expect((await c.query(`SELECT kid FROM "SigningKey" WHERE service = 'credential-issuer'`)).rowCount).toBe(0);
      for (const table of ['IssuedCredential', 'StatusList']) {
        expect([table, await outcome(c, `SELECT 1 FROM "${table}" LIMIT 1`)]).toEqual([table, PERMISSION_DENIED]);
      }
      // The console lists and disables an organization's keys, but a key's hash stays out of reach.
      expect(await outcome(c, 'SELECT "keyHash" FROM "ApiKey" LIMIT 1')).toBe(PERMISSION_DENIED);
      expect(await outcome(c, 'SELECT "id", "prefix", "status" FROM "ApiKey" LIMIT 1')).toBe('ok');
      expect(await outcome(c, 'UPDATE "ApiKey" SET "permissions" = \'{}\'')).toBe(PERMISSION_DENIED);
      // It shows each key's requests this hour, as the services that check keys counted them; it
      // cannot change them, and its housekeeping may drop only hours older than a week.
      await db.apiKeyUsage.upsert({
        where: { apiKeyId_hour: { apiKeyId: arranged.key.id, hour: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000) } },
        create: { apiKeyId: arranged.key.id, hour: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000), count: 1 },
        update: {},
      });
      expect(await outcome(c, 'SELECT "count" FROM "ApiKeyUsage" LIMIT 1')).toBe('ok');
      expect(await outcome(c, 'UPDATE "ApiKeyUsage" SET "count" = 0')).toBe(PERMISSION_DENIED);
      expect((await c.query('DELETE FROM "ApiKeyUsage"')).rowCount).toBe(0);
      expect(await db.apiKeyUsage.count({ where: { apiKeyId: arranged.key.id } })).toBe(1);
      // In production a person's verified data is the operator's to write (a sandbox's test users are not).
      expect(await outcome(c, 'DELETE FROM "User"')).toBe(PERMISSION_DENIED);
      // A password reset writes the password and its stamp, no other column of a user.
      expect(await outcome(c, 'UPDATE "User" SET "palmVerified" = true WHERE false')).toBe(PERMISSION_DENIED);
      expect(await outcome(c, 'UPDATE "User" SET "passwordHash" = "passwordHash", "updatedAt" = now() WHERE false')).toBe('ok');
      expect(await outcome(c, `UPDATE "UserCredential" SET "status" = 'valid'`)).toBe(PERMISSION_DENIED);
      expect(await outcome(c, 'DELETE FROM "Wallet"')).toBe(PERMISSION_DENIED);
    });
  });
});
