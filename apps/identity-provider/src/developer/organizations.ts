import type { Db } from '@svc/db';
import { notAMember } from '../errors.js';
import { appScopedUserId } from '../keys/keyed.js';

/** The organization a user speaks for: the one they own first, then any other membership. */
export async function membershipOf(db: Db, userId: string) {
  const memberships = await db.organizationMember.findMany({ where: { userId }, include: { organization: true }, orderBy: { createdAt: 'asc' } });
  const membership = memberships.find((m) => m.role === 'owner') ?? memberships[0];
  if (!membership) throw notAMember();
  return membership;
}

export const organizationView = (org: { id: string; name: string; ownerUserId: string | null }, userId: string) => ({
  id: org.id,
  name: org.name,
  ownerId: org.ownerUserId,
  isOwner: org.ownerUserId === userId,
});

/** The owner's to do (the caller checks the role). */
export async function renameOrganization(db: Db, developer: { organizationId: string; userId: string }, name: string) {
  return organizationView(await db.organization.update({ where: { id: developer.organizationId }, data: { name } }), developer.userId);
}

export interface ChangeListQuery {
  status?: 'active' | 'revoked' | undefined;
  updated_since?: string | undefined;
  limit: number;
}

/**
 * One page of the organization's authorization changes, oldest first: approved and consumed show
 * as `active`, pending and denied ones never appear. `has_more` and `last_modified` let a client
 * continue with `updated_since`.
 */
export async function authorizationChanges(db: Db, secret: string, organizationId: string, query: ChangeListQuery) {
  const statuses =
    query.status === 'revoked'
      ? (['revoked'] as const)
      : query.status === 'active'
        ? (['approved', 'consumed'] as const)
        : (['approved', 'consumed', 'revoked'] as const);
  const rows = await db.authorization.findMany({
    where: {
      application: { organizationId },
      status: { in: [...statuses] },
      userId: { not: null },
      ...(query.updated_since ? { updatedAt: { gt: new Date(query.updated_since) } } : {}),
    },
    orderBy: [{ updatedAt: 'asc' }, { id: 'asc' }],
    take: query.limit + 1,
  });
  const page = rows.slice(0, query.limit);
  return {
    items: page.map((a) => ({
      authorization_id: a.id,
      organization_id: organizationId,
      app_scoped_user_id: appScopedUserId(secret, organizationId, a.userId!),
      updated_at: a.updatedAt.toISOString(),
      status: a.status === 'revoked' ? ('revoked' as const) : ('active' as const),
    })),
    ...(page.length ? { last_modified: page.at(-1)!.updatedAt.toISOString() } : {}),
    has_more: rows.length > query.limit,
  };
}
