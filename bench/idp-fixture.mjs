// A user with credentials, an organization and a confidential client in the bench database, and
// tokens obtained through the real flow (authorize → approve → code exchange).
import { createHash, randomBytes } from 'node:crypto';
import { addCredential, createClient, createOrg, createUser } from '@svc/admin';
import { createPrismaClient } from '@svc/db';

export const REDIRECT = 'https://bench.example/callback';
export const SCOPE = 'openid identity:read kyc:read profile.full';

export async function createFixture(databaseUrl) {
  const db = createPrismaClient(databaseUrl);
  const ctx = { db, now: () => new Date() };
  const password = 'bench password';
  const user = await createUser(ctx, { email: `bench-${randomBytes(4).toString('hex')}@bench.example`, password, palmVerified: true });
  await addCredential(ctx, {
    email: user.email,
    source: 'kyc_provider',
    claims: JSON.stringify({ date_of_birth: '1990-04-12', nationality: 'DE', country_of_residence: 'DE', kyc_passed: true, document_country: 'DE', kyc_last_updated_at: '2026-01-01T00:00:00Z' }),
  });
  await addCredential(ctx, { email: user.email, source: 'links', claims: JSON.stringify({ email: 'bench@example.org', phone: '+4930123456', social_accounts: [{ provider: 'github', handle: 'bench', verified: true }] }) });
  const org = await createOrg(ctx, { name: 'Bench', ownerEmail: user.email });
  const client = await createClient(ctx, { org: org.id, name: 'Bench', redirectUris: [REDIRECT], scopes: SCOPE });
  await db.$disconnect();
  return { user, password, client, basicAuth: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}` };
}

const form = (o) => new URLSearchParams(o).toString();

/** `count` token responses, each from its own authorization. */
export async function issueTokens(issuer, fixture, count, scope = SCOPE) {
  const post = async (path, body, headers) => {
    const res = await fetch(`${issuer}${path}`, { method: 'POST', headers, body });
    if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    return res.json();
  };
  const session = await post('/auth/session', JSON.stringify({ email: fixture.user.email, password: fixture.password }), { 'content-type': 'application/json' });
  const tokens = [];
  for (let i = 0; i < count; i++) {
    const verifier = randomBytes(32).toString('base64url');
    const query = form({ client_id: fixture.client.client_id, redirect_uri: REDIRECT, response_type: 'code', scope, code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256' });
    const started = await (await fetch(`${issuer}/oauth/authorize?${query}`)).json();
    const approved = await post('/oauth/authorize/approve', JSON.stringify({ authorization_id: started.authorization_id }), { 'content-type': 'application/json', authorization: `Bearer ${session.session_token}` });
    tokens.push(await post('/oauth/token', form({ grant_type: 'authorization_code', code: approved.code, redirect_uri: REDIRECT, code_verifier: verifier }), { 'content-type': 'application/x-www-form-urlencoded', authorization: fixture.basicAuth }));
  }
  return tokens;
}
