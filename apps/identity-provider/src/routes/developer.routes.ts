import { Router, type Request } from 'express';
import { ForbiddenError, handle, methodNotAllowed, NotFoundError, UnauthorizedError } from '@svc/http';
import { ZAuthorizationListQuery, ZRenameOrganizationRequest } from '@svc/schemas';
import type { AppDeps } from '../deps.js';
import { authenticateClient, credentialsFrom } from '../services/clients.js';
import { appScopedUserId } from '../services/keyed.js';
import { optionalSession, requireSession } from './session-context.js';

async function membershipOf(deps: AppDeps, userId: string) {
  // An owner's own organization first, then any other membership.
  const memberships = await deps.db.organizationMember.findMany({ where: { userId }, include: { organization: true }, orderBy: { createdAt: 'asc' } });
  const membership = memberships.find((m) => m.role === 'owner') ?? memberships[0];
  if (!membership) throw new NotFoundError('You are not a member of any organization', 'organization_not_found');
  return membership;
}

const view = (org: { id: string; name: string; ownerUserId: string | null }, userId: string) => ({ id: org.id, name: org.name, ownerId: org.ownerUserId, isOwner: org.ownerUserId === userId });

/** The organization a caller speaks for: a client's (HTTP Basic), or a signed-in developer's. */
async function callerOrganization(deps: AppDeps, req: Request): Promise<string> {
  if (req.headers.authorization?.startsWith('Basic ')) return (await authenticateClient(deps.clients, credentialsFrom(req.headers.authorization, {}))).organizationId;
  const session = await optionalSession(deps, req);
  if (!session) throw new UnauthorizedError('Client credentials (HTTP Basic) or a developer session are required', 'unauthorized', { 'WWW-Authenticate': 'Basic realm="svc"' });
  return (await membershipOf(deps, session.userId)).organizationId;
}

export function developerRouter(deps: AppDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/organization')
    .get(async (req, res) => {
      const session = await requireSession(deps, req, { csrf: false });
      const membership = await membershipOf(deps, session.userId);
      res.json(view(membership.organization, session.userId));
    })
    .put(
      handle({ body: ZRenameOrganizationRequest }, async ({ body }, req, res) => {
        const session = await requireSession(deps, req, { csrf: true });
        const membership = await membershipOf(deps, session.userId);
        if (membership.organization.ownerUserId !== session.userId) throw new ForbiddenError('Only the organization owner may rename it', 'forbidden');
        const org = await deps.db.organization.update({ where: { id: membership.organizationId }, data: { name: body.name } });
        res.json(view(org, session.userId));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/authorizations')
    .get(
      handle({ query: ZAuthorizationListQuery }, async ({ query }, req, res) => {
        const organizationId = await callerOrganization(deps, req);
        const statuses = query.status === 'revoked' ? (['revoked'] as const) : query.status === 'active' ? (['approved', 'consumed'] as const) : (['approved', 'consumed', 'revoked'] as const);
        const rows = await deps.db.authorization.findMany({
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
        res.json({
          items: page.map((a) => ({
            authorization_id: a.id,
            organization_id: organizationId,
            app_scoped_user_id: appScopedUserId(deps.config.IDP_SECRET, organizationId, a.userId!),
            updated_at: a.updatedAt.toISOString(),
            status: a.status === 'revoked' ? 'revoked' : 'active',
          })),
          ...(page.length ? { last_modified: page.at(-1)!.updatedAt.toISOString() } : {}),
          has_more: rows.length > query.limit,
        });
      }),
    )
    .all(methodNotAllowed);
  return router;
}
