import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from '@jest/globals';
import { createClient, createOrg, createUser, type AdminContext } from '@svc/admin';
import { createPrismaClient, type Db } from '@svc/db';
import type { Environment } from '@svc/secrets';
import type { Clock } from '@svc/runtime';
import {
  testDatabaseUrl,
  testDb,
  testSandboxDatabaseUrl,
  testPairwiseSecret,
  testSigningKeyKek,
  testRedisUrl,
  uniqueEmail,
  uniqueNamespace,
  withTestReplica,
} from '@svc/testkit';
import { contractSuite } from '@svc/testkit/contract-suite';
import request from 'supertest';
import { createApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { buildDeps } from '../src/deps.js';

export const SECRET = 'test-idp-secret-0123456789abcdefghijklmnop';
/** This test file's own Redis keys: sign-in throttles and caches of other files and runs stay apart. */
export const REDIS_KEY_PREFIX = uniqueNamespace('idp-test');
export const REDIRECT = 'https://app.example/callback';

/** Every app of this test file answers as its OpenAPI document says. */
const checked = contractSuite();

/** `clock` (optional): a clock the test moves; rate-limit windows follow it too. */
export function buildIdp(env: NodeJS.ProcessEnv = {}, clock?: Clock) {
  // withTestReplica: on a run with a read replica, this database's copy there (the sandbox's, for a sandbox).
  const config = loadConfig(
    withTestReplica({
      DATABASE_URL: testDatabaseUrl(),
      IDP_SIGNING_KEY_KEK: testSigningKeyKek('identity-provider'),
      PAIRWISE_SECRET: testPairwiseSecret(),
      REDIS_URL: testRedisUrl(),
      LOG_LEVEL: 'silent',
      IDP_SECRET: SECRET,
      REDIS_KEY_PREFIX,
      PUBLIC_URL: PRODUCTION_URL,
      SANDBOX_BASE_URL: SANDBOX_URL,
      // Every test signs up from one address; the limit itself has a test of its own.
      SIGNUP_RATE_LIMIT: '1000',
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      // Its PUBLIC_URL is no loopback address: the tests read mail from the local outbox all the same.
      MAIL_OUTBOX: 'local',
      ...env,
    }),
  );
  const deps = buildDeps(config, clock);
  return { app: checked(createApp(deps)), deps };
}

/** A Prisma client and an app for one suite, opened before its tests and closed after. */
export function useIdp(env: NodeJS.ProcessEnv = {}): { readonly db: Db; readonly idp: ReturnType<typeof buildIdp> } {
  const held = {} as { db: Db; idp: ReturnType<typeof buildIdp> };
  beforeAll(() => {
    held.db = testDb();
    held.idp = buildIdp(env);
  });
  afterAll(async () => {
    await held.idp.deps.close();
    await held.db.$disconnect();
  });
  return held;
}

export const PRODUCTION_URL = 'https://id.example.com';
export const SANDBOX_URL = 'https://sandbox.id.example.com';

/**
 * A sandbox identity provider on the run's sandbox database (its own, as deployed), beside the
 * production one of `useIdp`, each naming the other's base URL.
 */
export function useSandbox(env: NodeJS.ProcessEnv = {}): { readonly db: Db; readonly idp: ReturnType<typeof buildIdp> } {
  const held = {} as { db: Db; idp: ReturnType<typeof buildIdp> };
  beforeAll(async () => {
    const url = await testSandboxDatabaseUrl();
    held.db = createPrismaClient(url, { poolSize: 4 });
    held.idp = buildIdp({ SVC_ENVIRONMENT: 'sandbox', DATABASE_URL: url, PUBLIC_URL: SANDBOX_URL, PRODUCTION_BASE_URL: PRODUCTION_URL, ...env });
  });
  afterAll(async () => {
    await held.idp.deps.close();
    await held.db.$disconnect();
  });
  return held;
}

export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function arrange(
  db: Db,
  options: {
    palmVerified?: boolean;
    requiresPalm?: boolean;
    scopes?: string;
    presetCacheTtl?: number;
    accessTokenTtl?: number;
    /** The sandbox's database: what it makes is marked sbx_. */
    environment?: Environment;
  } = {},
) {
  const ctx: AdminContext = { db, now: () => new Date(), environment: options.environment ?? 'production' };
  const password = 'correct horse battery';
  const user = await createUser(ctx, { email: uniqueEmail('alice'), password, palmVerified: options.palmVerified ?? true, wallets: [] });
  const other = await createUser(ctx, { email: uniqueEmail('mallory'), password, palmVerified: true });
  const org = await createOrg(ctx, { name: 'Client Org', ownerEmail: user.email });
  const scopes = options.scopes ?? 'openid identity:read profile.full kyc:read financial:read financial:net_worth';
  const confidential = await createClient(ctx, {
    org: org.id,
    name: 'Confidential App',
    redirectUris: [REDIRECT],
    scopes,
    requiresPalmVerification: options.requiresPalm,
    presetCacheTtl: options.presetCacheTtl,
    accessTokenTtl: options.accessTokenTtl,
  });
  const publicClient = await createClient(ctx, { org: org.id, name: 'Public App', redirectUris: [REDIRECT], scopes, public: true });
  return { ctx, user: { ...user, password }, other: { ...other, password }, org, confidential, publicClient: { client_id: publicClient.client_id } };
}

type App = ReturnType<typeof buildIdp>['app'];

export async function signIn(app: App, email: string, password: string): Promise<string> {
  const res = await request(app).post('/auth/session').send({ email, password });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.session_token;
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** authorize (JSON) → approve (bearer session): the code and the PKCE verifier. */
export async function obtainCode(app: App, clientId: string, session: string, options: { scope?: string; nonce?: string; state?: string } = {}) {
  const { verifier, challenge } = pkce();
  const authorize = await request(app)
    .get('/oauth/authorize')
    .query({
      client_id: clientId,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: options.scope ?? 'openid identity:read profile.full',
      state: options.state ?? 'st-1',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      nonce: options.nonce ?? 'n-1',
    });
  if (authorize.status !== 200) throw new Error(`authorize: ${authorize.status} ${JSON.stringify(authorize.body)}`);
  const approve = await request(app)
    .post('/oauth/authorize/approve')
    .set('Authorization', `Bearer ${session}`)
    .send({ authorization_id: authorize.body.authorization_id });
  if (approve.status !== 200) throw new Error(`approve: ${approve.status} ${JSON.stringify(approve.body)}`);
  return { code: approve.body.code as string, verifier, authorizationId: authorize.body.authorization_id as string, approve: approve.body };
}

/** The code grant's token request, as a confidential (Basic) or public (client_id) client sends it. */
export function exchangeWith(app: App, client: { client_id: string; client_secret?: string | null }, body: Record<string, string>) {
  const req = request(app).post('/oauth/token').type('form');
  if (client.client_secret) req.set('Authorization', basic(client.client_id, client.client_secret));
  return req.send({ grant_type: 'authorization_code', redirect_uri: REDIRECT, ...(client.client_secret ? {} : { client_id: client.client_id }), ...body });
}

/** Sign in, authorize, approve, exchange: tokens of `a`'s confidential client for `a`'s user. */
export async function issueTokens(app: App, a: Awaited<ReturnType<typeof arrange>>, scope?: string) {
  const session = await signIn(app, a.user.email, a.user.password);
  const { code, verifier, authorizationId } = await obtainCode(app, a.confidential.client_id, session, scope ? { scope } : {});
  const res = await exchangeWith(app, a.confidential, { code, code_verifier: verifier });
  if (res.status !== 200) throw new Error(`token: ${res.status} ${JSON.stringify(res.body)}`);
  return { session, authorizationId, ...(res.body as { access_token: string; refresh_token: string; app_scoped_user_id: string; granted_scopes: string[] }) };
}

/** Polls until `check` holds, for at most `ms` (the documented bound is what a test may wait). */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 5_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * PostgreSQL's notifications reach this replica late (a busy listener, a slow network): until
 * `release`, the grant cache hears none of them, while its listener stays live. What the replica
 * did itself must still be refused at once.
 */
export function holdNotifications(idp: ReturnType<typeof buildIdp>) {
  const grants = idp.deps.tokens.grants;
  const held: string[] = [];
  const heard = grants.changed.bind(grants);
  grants.changed = (payload: string) => void held.push(payload);
  return {
    release() {
      grants.changed = heard;
      for (const payload of held) heard(payload);
    },
  };
}
