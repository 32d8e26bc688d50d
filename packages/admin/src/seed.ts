import { randomBase62 } from '@svc/secrets';
import { createAction } from './actions.js';
import { createApiKey } from './api-keys.js';
import { createClient } from './clients.js';
import { inTransaction, type AdminContext } from './context.js';
import { DEMO_CREDENTIALS, DEMO_WALLETS } from './demo-data.js';
import { AdminError } from './errors.js';
import { createOrg } from './orgs.js';
import { ensureKey } from './signing-keys.js';
import { addCredential, createUser } from './users.js';

export const DEMO_DOMAIN = 'demo.example';
/** The demo relying party's callback (examples/demo-app, which npm start runs on port 4003). */
export const DEMO_REDIRECT_URI = 'http://localhost:4003/callback';

export async function hasDemoData(ctx: AdminContext): Promise<boolean> {
  return (await ctx.db.user.count({ where: { email: `developer@${DEMO_DOMAIN}` } })) > 0;
}

/** Makes sure each service has a signing key; a fresh install needs no rotation step. */
export async function ensureSigningKeys(ctx: AdminContext) {
  const out: Record<string, string> = {};
  for (const service of ['identity-provider', 'credential-issuer'] as const) out[service] = await ensureKey(ctx, service);
  return out;
}

/**
 * A developer who owns an organization with a confidential and a public application, a
 * palm-verified user whose credentials back every preset, a user who is not palm-verified,
 * API keys for wallet-verify and the credential issuer, and an action counted once per person (the
 * SDK's README proves it). Secrets exist only in the result.
 */
export function seedDemo(ctx: AdminContext) {
  return inTransaction(ctx, seedDemoIn);
}

async function seedDemoIn(ctx: AdminContext) {
  if (await hasDemoData(ctx)) {
    throw new AdminError(
      'demo data already exists; its secrets were shown when it was made (npm start keeps them in .data/demo.json); the database holds only their hashes',
    );
  }
  const password = `demo-${randomBase62(12)}`;
  const developer = await createUser(ctx, { email: `developer@${DEMO_DOMAIN}`, password, palmVerified: true });
  const verified = await createUser(ctx, { email: `alice@${DEMO_DOMAIN}`, password, wallets: DEMO_WALLETS.verified, palmVerified: true });
  const unverified = await createUser(ctx, { email: `bob@${DEMO_DOMAIN}`, password, wallets: DEMO_WALLETS.unverified, palmVerified: false });
  for (const { source, claims, expiresInDays } of DEMO_CREDENTIALS) {
    await addCredential(ctx, {
      email: verified.email,
      source,
      claims: JSON.stringify(claims),
      expiresAt: new Date(ctx.now().getTime() + expiresInDays * 86_400_000).toISOString(),
    });
  }
  const org = await createOrg(ctx, { name: 'Demo Organization', ownerEmail: developer.email });
  const allScopes =
    'openid profile.full data.read identity:read kyc:read financial:read identity:date_of_birth identity:address_postal_code identity:address_full identity:legal_name kyc:document_number financial:bank_balance financial:loan_balance financial:net_worth';
  const confidential = await createClient(ctx, {
    org: org.id,
    name: 'Demo Confidential App',
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: allScopes,
  });
  const publicClient = await createClient(ctx, {
    org: org.id,
    name: 'Demo Public App',
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: 'openid identity:read kyc:read',
    public: true,
    requiresPalmVerification: true,
  });
  // OpenID4VCI's authorization code flow: a wallet (a public client) and the credential issuer's
  // own client, with which it introspects the wallet's tokens (scripts/launcher.mjs wires both).
  // A wallet asks for credentials of the person's data, so it is registered for the scopes that data is under.
  const wallet = await createClient(ctx, {
    org: org.id,
    name: 'Demo Wallet',
    redirectUris: [DEMO_REDIRECT_URI],
    scopes: 'openid identity:read kyc:read',
    public: true,
  });
  const credentialIssuer = await createClient(ctx, { org: org.id, name: 'Credential issuer', redirectUris: [DEMO_REDIRECT_URI], scopes: 'openid' });
  const walletKey = await createApiKey(ctx, { org: org.id, permissions: 'wallet:verify', name: 'demo wallet-verify' });
  const issuerKey = await createApiKey(ctx, { org: org.id, permissions: 'credentials:issue,presentations:verify', name: 'demo credential-issuer' });
  const vote = await createAction(ctx, { org: org.id, action: 'demo-vote', description: 'One vote per person' });
  const signingKeys = await ensureSigningKeys(ctx);
  return {
    organization: org,
    users: {
      developer: { ...developer, password },
      palm_verified: { ...verified, password, wallets: DEMO_WALLETS.verified },
      not_palm_verified: { ...unverified, password, wallets: DEMO_WALLETS.unverified },
    },
    clients: {
      confidential: { ...confidential, redirect_uri: DEMO_REDIRECT_URI, scopes: allScopes },
      public: { ...publicClient, redirect_uri: DEMO_REDIRECT_URI, scopes: 'openid identity:read kyc:read' },
      wallet: { ...wallet, redirect_uri: DEMO_REDIRECT_URI },
      credential_issuer: credentialIssuer,
    },
    api_keys: { wallet_verify: walletKey, credential_issuer: issuerKey },
    actions: { vote },
    signing_keys: signingKeys,
  };
}

export type DemoData = Awaited<ReturnType<typeof seedDemo>>;
