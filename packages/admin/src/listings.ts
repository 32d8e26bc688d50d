import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { assertUuid, orgById, userByEmail } from './lookups.js';

// What an operator may read back: never a password, secret or key hash, never claim values
// (personal data: `show` names the claims a credential holds, not what they say).

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Newest first, at most `limit` (1-1000, default 100); a bad limit is the operator's mistake. */
function newest(limit: number | undefined) {
  const take = limit ?? 100;
  if (take < 1 || take > 1000) throw new AdminError('--limit must be between 1 and 1000');
  return { orderBy: [{ createdAt: 'desc' as const }, { id: 'desc' as const }], take };
}

/** `newest`, within one organization when `org` is given (which must exist). */
async function newestOf(ctx: AdminContext, input: { org?: string | undefined; limit?: number | undefined }) {
  if (input.org !== undefined) await orgById(ctx, input.org);
  return { where: input.org ? { organizationId: input.org } : {}, ...newest(input.limit) };
}

const userSummary = (u: { id: string; email: string; palmVerified: boolean; createdAt: Date }) => ({
  id: u.id,
  email: u.email,
  palm_verified: u.palmVerified,
  created_at: iso(u.createdAt),
});

export async function listUsers(ctx: AdminContext, input: { limit?: number | undefined }) {
  const users = await ctx.db.user.findMany(newest(input.limit));
  return { users: users.map(userSummary) };
}

export async function showUser(ctx: AdminContext, input: { email: string }) {
  const user = await userByEmail(ctx, input.email);
  const [wallets, credentials, memberships] = await Promise.all([
    ctx.db.wallet.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } }),
    ctx.db.userCredential.findMany({ where: { userId: user.id }, orderBy: { createdAt: 'asc' } }),
    ctx.db.organizationMember.findMany({ where: { userId: user.id }, include: { organization: true } }),
  ]);
  return {
    ...userSummary(user),
    service_id: user.serviceId,
    palm_verified_at: iso(user.palmVerifiedAt),
    // Made by the person (sign-up, invitation), not an operator: verified data needs --self-registered-ok.
    self_registered: user.selfRegistered,
    wallets: wallets.map((w) => ({ address: w.address, primary: w.isPrimary })),
    credentials: credentials.map((c) => ({
      id: c.id,
      source: c.source,
      status: c.status,
      claim_names: Object.keys(c.claims as object).sort(),
      verified_at: iso(c.verifiedAt),
      expires_at: iso(c.expiresAt),
    })),
    organizations: memberships.map((m) => ({ id: m.organizationId, name: m.organization.name, role: m.role })),
  };
}

export async function listOrgs(ctx: AdminContext, input: { limit?: number | undefined }) {
  const orgs = await ctx.db.organization.findMany({
    ...newest(input.limit),
    include: { owner: { select: { email: true } }, _count: { select: { members: true, apps: true, apiKeys: true } } },
  });
  return {
    organizations: orgs.map((o) => ({
      id: o.id,
      name: o.name,
      owner: o.owner?.email ?? null,
      members: o._count.members,
      clients: o._count.apps,
      api_keys: o._count.apiKeys,
      created_at: iso(o.createdAt),
    })),
  };
}

export async function showOrg(ctx: AdminContext, input: { id: string }) {
  const org = await orgById(ctx, input.id);
  const [members, clients, keys] = await Promise.all([
    ctx.db.organizationMember.findMany({ where: { organizationId: org.id }, include: { user: { select: { email: true } } }, orderBy: { createdAt: 'asc' } }),
    listClients(ctx, { org: org.id }),
    listApiKeys(ctx, { org: org.id }),
  ]);
  return {
    id: org.id,
    name: org.name,
    created_at: iso(org.createdAt),
    members: members.map((m) => ({ email: m.user.email, role: m.role })),
    clients: clients.clients,
    api_keys: keys.api_keys,
  };
}

type Client = Awaited<ReturnType<AdminContext['db']['application']['findFirstOrThrow']>>;
const clientSummary = (a: Client) => ({
  client_id: a.clientId,
  name: a.name,
  organization_id: a.organizationId,
  status: a.status,
  public: a.isPublic,
  redirect_uris: a.redirectUris,
  scopes: a.allowedScopes,
  created_at: iso(a.createdAt),
});

export async function listClients(ctx: AdminContext, input: { org?: string | undefined; limit?: number | undefined }) {
  const apps = await ctx.db.application.findMany(await newestOf(ctx, input));
  return { clients: apps.map(clientSummary) };
}

export async function showClient(ctx: AdminContext, input: { clientId: string }) {
  const app = await ctx.db.application.findUnique({ where: { clientId: input.clientId } });
  if (!app) throw new AdminError(`no client with client_id ${input.clientId}`);
  return {
    ...clientSummary(app),
    requires_palm_verification: app.requiresPalmVerification,
    requires_dpop: app.requiresDpop,
    client_authentication: app.isPublic
      ? 'none'
      : app.tokenEndpointAuthMethod === 'self_signed_tls_client_auth'
        ? 'self_signed_tls_client_auth'
        : app.jwks || app.jwksUri
          ? 'private_key_jwt'
          : 'client_secret',
    jwks_uri: app.jwksUri,
    access_token_ttl_seconds: app.accessTokenTtlSeconds,
    preset_cache_ttl_seconds: app.presetCacheTtlSeconds,
    revoked_at: iso(app.revokedAt),
  };
}

type ApiKey = Awaited<ReturnType<AdminContext['db']['apiKey']['findFirstOrThrow']>>;
const keySummary = (k: ApiKey) => ({
  id: k.id,
  prefix: k.prefix,
  name: k.name,
  organization_id: k.organizationId,
  status: k.status,
  permissions: k.permissions,
  hourly_limit: k.hourlyLimit,
  burst_limit: k.burstLimit,
  last_used_at: iso(k.lastUsedAt),
  created_at: iso(k.createdAt),
  disabled_at: iso(k.disabledAt),
  rotated_from: k.rotatedFromId,
});

export async function listApiKeys(ctx: AdminContext, input: { org?: string | undefined; limit?: number | undefined }) {
  const keys = await ctx.db.apiKey.findMany(await newestOf(ctx, input));
  return { api_keys: keys.map(keySummary) };
}

export async function showApiKey(ctx: AdminContext, input: { id: string }) {
  assertUuid(input.id, 'API key');
  const key = await ctx.db.apiKey.findUnique({ where: { id: input.id } });
  if (!key) throw new AdminError(`no API key with id ${input.id}`);
  return keySummary(key);
}
