// A user with credentials, an organization and a confidential client in the bench database, and
// tokens obtained through the real flow (authorize → approve → code exchange).
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { addCredential, createClient, createOrg, createUser } from '@svc/admin';
import { createPrismaClient } from '@svc/db';
import { authorizeThroughApi } from '@svc/testkit';
import { startTarget } from './lib.mjs';

export const REDIRECT = 'https://bench.example/callback';

/** The built identity provider as a process, with its per-client limit out of the way; `env` adds to it (PUBLIC_URL for replicas). */
export function startIdentityProvider(databaseUrl, env = {}) {
  return startTarget(fileURLToPath(new URL('../apps/identity-provider/dist/server.js', import.meta.url)), {
    DATABASE_URL: databaseUrl,
    IDP_SECRET: 'bench-secret-0123456789abcdefghijklmnopq',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_DEFAULT: '100000000',
    AUTHORIZE_RATE_LIMIT: '100000000',
    ...env,
  });
}
export const SCOPE = 'openid identity:read kyc:read profile.full';

export async function createFixture(databaseUrl) {
  const db = createPrismaClient(databaseUrl);
  const ctx = { db, now: () => new Date() };
  const password = 'bench password';
  const user = await createUser(ctx, { email: `bench-${randomBytes(4).toString('hex')}@bench.example`, password, palmVerified: true });
  await addCredential(ctx, {
    email: user.email,
    source: 'kyc_provider',
    claims: JSON.stringify({
      date_of_birth: '1990-04-12',
      nationality: 'DE',
      country_of_residence: 'DE',
      kyc_passed: true,
      document_country: 'DE',
      kyc_last_updated_at: '2026-01-01T00:00:00Z',
    }),
  });
  await addCredential(ctx, {
    email: user.email,
    source: 'links',
    claims: JSON.stringify({ email: 'bench@example.org', phone: '+4930123456', social_accounts: [{ provider: 'github', handle: 'bench', verified: true }] }),
  });
  const org = await createOrg(ctx, { name: 'Bench', ownerEmail: user.email });
  const client = await createClient(ctx, { org: org.id, name: 'Bench', redirectUris: [REDIRECT], scopes: SCOPE });
  // An action whose limit no run reaches: every proof is counted, none refused.
  const action = `bench.vote-${randomBytes(4).toString('hex')}`;
  await db.action.create({ data: { organizationId: org.id, name: action, maxPerPerson: 2_000_000_000 } });
  await db.$disconnect();
  return { user, password, client, action, basicAuth: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` };
}

/** `count` token responses, each from its own authorization. */
export function issueTokens(issuer, fixture, count, scope = SCOPE) {
  return authorizeThroughApi(
    issuer,
    { email: fixture.user.email, password: fixture.password },
    { clientId: fixture.client.client_id, clientSecret: fixture.client.client_secret, redirectUri: REDIRECT },
    scope,
    count,
  );
}

const PRESETS = [
  'age',
  'age_over_18',
  'age_over_21',
  'nationality',
  'country_of_residence',
  'kyc_passed',
  'document_country',
  'kyc_last_updated_at',
  'email',
  'social_accounts',
];
/** A batch of ten presets and a five-check query, as the data benchmarks send them. */
export const batchBody = JSON.stringify({ presets: PRESETS });
export const queryBody = JSON.stringify({
  query: {
    policy: {
      allOf: [
        { claim: 'age', operator: '>=', value: 18 },
        { claim: 'kyc_passed', operator: '==', value: true },
      ],
      anyOf: [
        { claim: 'nationality', operator: 'in', value: ['DE', 'FR', 'IT'] },
        { claim: 'country_of_residence', operator: '==', value: 'DE' },
      ],
      not: { claim: 'social_accounts[0].provider', operator: '==', value: 'myspace' },
    },
  },
});
