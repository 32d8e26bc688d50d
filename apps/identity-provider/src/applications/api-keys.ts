/**
 * An organization's API keys for wallet verify and the credential issuer, made
 * and disabled by its developers. The key is shown once; this service's database role may write a
 * key's hash but never read one back (packages/db service-roles.ts), so every read here names its
 * columns.
 */
import { createApiKey } from '@svc/admin';
import { type FieldIssue, ValidationError } from '@svc/http';
import type { ApiKeyView } from '@svc/schemas';
import type { z } from 'zod';
import type { ZCreateApiKeyRequest } from '@svc/schemas';
import { apiKeyNotFound, conflict } from '../errors.js';
import { adminContext, asRequest } from '../developer/admin-calls.js';
import type { Developer } from '../developer/developer-auth.js';
import type { DeveloperDeps } from '../developer/deps.js';

const LISTED = {
  id: true,
  name: true,
  prefix: true,
  permissions: true,
  hourlyLimit: true,
  burstLimit: true,
  status: true,
  lastUsedAt: true,
  createdAt: true,
  disabledAt: true,
} as const;

type ListedKey = {
  id: string;
  name: string | null;
  prefix: string;
  permissions: string[];
  hourlyLimit: number;
  burstLimit: number;
  status: 'active' | 'disabled';
  lastUsedAt: Date | null;
  createdAt: Date;
  disabledAt: Date | null;
};

const HOUR_MS = 3_600_000;

/**
 * The keys as a developer sees them, with their requests in the current hour (one query for all
 * of them; a key unused this hour has no row).
 */
async function apiKeyViews(deps: DeveloperDeps, keys: ListedKey[]): Promise<ApiKeyView[]> {
  const hour = new Date(Math.floor(deps.clock.now().getTime() / HOUR_MS) * HOUR_MS);
  const usage = keys.length
    ? await deps.db.apiKeyUsage.findMany({ where: { apiKeyId: { in: keys.map((k) => k.id) }, hour }, select: { apiKeyId: true, count: true } })
    : [];
  const counts = new Map(usage.map((u) => [u.apiKeyId, u.count]));
  return keys.map((key) => apiKeyView(deps, key, counts.get(key.id) ?? 0));
}

/** A key made above today's platform maximum (before it, or before it was lowered) shows the limits it is held to. */
function apiKeyView(deps: DeveloperDeps, key: ListedKey, requestsThisHour: number): ApiKeyView {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    permissions: key.permissions,
    hourly_limit: Math.min(key.hourlyLimit, deps.config.API_KEY_MAX_HOURLY_LIMIT),
    burst_limit: Math.min(key.burstLimit, deps.config.API_KEY_MAX_BURST_LIMIT),
    status: key.status,
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    requests_this_hour: requestsThisHour,
    created_at: key.createdAt.toISOString(),
    disabled_at: key.disabledAt?.toISOString() ?? null,
  };
}

/** Active API keys an organization may have. */
const ACTIVE_KEYS = 100;

/**
 * Tenants choose their keys' limits; the operator chooses how high they may go (API_KEY_MAX_*), so
 * the limits a key is advertised with mean the same for every tenant.
 */
function assertWithinPlatformMaximum(deps: DeveloperDeps, body: z.output<typeof ZCreateApiKeyRequest>): void {
  const issues: FieldIssue[] = [];
  for (const [field, value, max] of [
    ['hourly_limit', body.hourly_limit, deps.config.API_KEY_MAX_HOURLY_LIMIT],
    ['burst_limit', body.burst_limit, deps.config.API_KEY_MAX_BURST_LIMIT],
  ] as const) {
    if (value !== undefined && value > max) issues.push({ field: `body.${field}`, message: `must be at most ${max}, the platform maximum per key` });
  }
  if (issues.length) throw new ValidationError(issues);
}

export async function makeApiKey(deps: DeveloperDeps, developer: Developer, body: z.output<typeof ZCreateApiKeyRequest>) {
  assertWithinPlatformMaximum(deps, body);
  if ((await deps.db.apiKey.count({ where: { organizationId: developer.organizationId, status: 'active' } })) >= ACTIVE_KEYS)
    throw conflict('too_many_api_keys', `An organization has at most ${ACTIVE_KEYS} active API keys: disable some first`);
  const { id, key } = await asRequest(() =>
    createApiKey(
      { ...adminContext(deps), apiKeyMaxLimits: { hourly: deps.config.API_KEY_MAX_HOURLY_LIMIT, burst: deps.config.API_KEY_MAX_BURST_LIMIT } },
      {
        org: developer.organizationId,
        permissions: body.permissions.join(','),
        name: body.name,
        hourlyLimit: body.hourly_limit,
        burstLimit: body.burst_limit,
      },
    ),
  );
  return { ...apiKeyView(deps, await deps.db.apiKey.findUniqueOrThrow({ where: { id }, select: LISTED }), 0), key };
}

export async function listApiKeys(deps: DeveloperDeps, developer: Developer) {
  // Lag-tolerant: from the read replica unless this organization just wrote (see ReplicaReads).
  const keys = await deps.reads.read(developer.organizationId, (db) =>
    db.apiKey.findMany({ where: { organizationId: developer.organizationId }, select: LISTED, orderBy: { createdAt: 'asc' } }),
  );
  return { items: await apiKeyViews(deps, keys) };
}

/** Disabled at once for every service that checks it (wallet verify and the credential issuer cache a key's status briefly). Idempotent. */
export async function disableKey(deps: DeveloperDeps, developer: Developer, id: string) {
  const now = deps.clock.now();
  await deps.db.apiKey.updateMany({ where: { id, organizationId: developer.organizationId, status: 'active' }, data: { status: 'disabled', disabledAt: now } });
  const key = await deps.db.apiKey.findFirst({ where: { id, organizationId: developer.organizationId }, select: LISTED });
  if (!key) throw apiKeyNotFound();
  return (await apiKeyViews(deps, [key]))[0]!;
}
