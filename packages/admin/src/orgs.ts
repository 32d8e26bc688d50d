import type { AdminContext } from './context.js';
import { AdminError } from './errors.js';
import { orgById, userByEmail } from './lookups.js';

export const ORG_NAME_MAX = 100;

export function assertOrgName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AdminError('--name must not be empty');
  if (trimmed.length > ORG_NAME_MAX) throw new AdminError(`--name must be at most ${ORG_NAME_MAX} characters`);
  return trimmed;
}

export async function createOrg(ctx: AdminContext, input: { name: string; ownerEmail: string }) {
  const name = assertOrgName(input.name);
  const owner = await userByEmail(ctx, input.ownerEmail);
  const org = await ctx.db.organization.create({
    data: { name, ownerUserId: owner.id, members: { create: { userId: owner.id, role: 'owner' } } },
  });
  return { id: org.id, name: org.name, owner_user_id: owner.id };
}

const ROLES = ['owner', 'developer'] as const;

export async function addMember(ctx: AdminContext, input: { org: string; email: string; role: string }) {
  if (!(ROLES as readonly string[]).includes(input.role)) throw new AdminError(`--role must be one of ${ROLES.join(', ')}`);
  const role = input.role as (typeof ROLES)[number];
  const org = await orgById(ctx, input.org);
  const user = await userByEmail(ctx, input.email);
  await ctx.db.organizationMember.upsert({
    where: { organizationId_userId: { organizationId: org.id, userId: user.id } },
    create: { organizationId: org.id, userId: user.id, role },
    update: { role },
  });
  return { org_id: org.id, user_id: user.id, role };
}
