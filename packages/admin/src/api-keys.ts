import { API_KEY_MAX_LIMITS, API_KEY_PERMISSIONS } from '@svc/schemas';
import { generateApiKey } from '@svc/secrets';
import { inTransaction, type AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { assertUuid, orgById } from './lookups.js';

export interface ApiKeyLimits {
  hourlyLimit?: number | undefined;
  burstLimit?: number | undefined;
}

/** What a column of the database holds: the bound when no platform maximum is given. */
const INT_MAX = 2_147_483_647;

function assertLimits(ctx: AdminContext, limits: ApiKeyLimits): void {
  const max = ctx.apiKeyMaxLimits;
  for (const [flag, value, ceiling, variable] of [
    ['--hourly-limit', limits.hourlyLimit, max?.hourly, 'API_KEY_MAX_HOURLY_LIMIT'],
    ['--burst-limit', limits.burstLimit, max?.burst, 'API_KEY_MAX_BURST_LIMIT'],
  ] as const) {
    if (value === undefined) continue;
    if (!Number.isInteger(value) || value < 1 || value > INT_MAX) throw new AdminError(`${flag} must be a whole number from 1 to ${ceiling ?? INT_MAX}`);
    if (ceiling !== undefined && value > ceiling) throw new AdminError(`${flag} must be at most ${ceiling}, the platform maximum per key (${variable})`);
  }
}

/**
 * The platform maximum of a key's limits as the operator set it (API_KEY_MAX_HOURLY_LIMIT,
 * API_KEY_MAX_BURST_LIMIT, the same variables the services read), else the defaults.
 */
export function apiKeyMaxLimitsFromEnv(env: NodeJS.ProcessEnv): { hourly: number; burst: number } {
  const read = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > INT_MAX)
      throw new AdminError(`${name} must be a whole number from 1 to ${INT_MAX} (got ${JSON.stringify(raw)})`);
    return Number(raw);
  };
  return { hourly: read('API_KEY_MAX_HOURLY_LIMIT', API_KEY_MAX_LIMITS.hourly), burst: read('API_KEY_MAX_BURST_LIMIT', API_KEY_MAX_LIMITS.burst) };
}

export async function createApiKey(ctx: AdminContext, input: { org: string; permissions: string; name?: string | undefined } & ApiKeyLimits) {
  const permissions = [
    ...new Set(
      input.permissions
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean),
    ),
  ];
  if (permissions.length === 0) throw new AdminError(`--permissions must list at least one of ${API_KEY_PERMISSIONS.join(', ')}`);
  const unknown = permissions.filter((p) => !(API_KEY_PERMISSIONS as readonly string[]).includes(p));
  if (unknown.length) throw new AdminError(`--permissions has unknown permissions: ${unknown.join(', ')} (known: ${API_KEY_PERMISSIONS.join(', ')})`);
  assertLimits(ctx, input);
  const org = await orgById(ctx, input.org);
  const generated = generateApiKey(ctx.environment);
  // Only the id comes back: the identity provider's database role may write a key's hash, never read it.
  const key = await ctx.db.apiKey.create({
    select: { id: true },
    data: {
      organizationId: org.id,
      prefix: generated.prefix,
      keyHash: generated.hash,
      name: input.name ?? null,
      permissions,
      ...(input.hourlyLimit ? { hourlyLimit: input.hourlyLimit } : {}),
      ...(input.burstLimit ? { burstLimit: input.burstLimit } : {}),
    },
  });
  return { id: key.id, key: generated.key };
}

async function keyById(ctx: AdminContext, id: string) {
  assertUuid(id, 'API key');
  const key = await ctx.db.apiKey.findUnique({ where: { id } });
  if (!key) throw new AdminError(`no API key with id ${id}`);
  return key;
}

export async function disableApiKey(ctx: AdminContext, input: { id: string }) {
  await keyById(ctx, input.id);
  const key = await ctx.db.apiKey.update({ where: { id: input.id }, data: { status: 'disabled', disabledAt: ctx.now() } });
  return { id: key.id, status: key.status };
}

/** A new key with the same organization, permissions and limits; the old one is disabled at once. */
export async function rotateApiKey(ctx: AdminContext, input: { id: string }) {
  const old = await keyById(ctx, input.id);
  if (old.status !== 'active') throw new AdminError(`API key ${old.id} is disabled; create a new one instead`);
  const generated = generateApiKey(ctx.environment);
  const created = await inTransaction(ctx, async ({ db: tx }) => {
    await tx.apiKey.update({ where: { id: old.id }, data: { status: 'disabled', disabledAt: ctx.now() } });
    return tx.apiKey.create({
      data: {
        organizationId: old.organizationId,
        prefix: generated.prefix,
        keyHash: generated.hash,
        name: old.name,
        permissions: old.permissions,
        hourlyLimit: old.hourlyLimit,
        burstLimit: old.burstLimit,
        rotatedFromId: old.id,
      },
    });
  });
  return { id: created.id, key: generated.key, replaces: old.id };
}

export async function setApiKeyLimits(ctx: AdminContext, input: { id: string } & ApiKeyLimits) {
  if (input.hourlyLimit === undefined && input.burstLimit === undefined) throw new AdminError('give --hourly-limit, --burst-limit or both');
  assertLimits(ctx, input);
  await keyById(ctx, input.id);
  const key = await ctx.db.apiKey.update({
    where: { id: input.id },
    data: { ...(input.hourlyLimit ? { hourlyLimit: input.hourlyLimit } : {}), ...(input.burstLimit ? { burstLimit: input.burstLimit } : {}) },
  });
  return { id: key.id, hourly_limit: key.hourlyLimit, burst_limit: key.burstLimit };
}
