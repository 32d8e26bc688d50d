/** The console itself: the dashboard of a signed-in developer's organization, or the way in. */
import type { RequestHandler } from 'express';
import { listApiKeys } from '../../applications/api-keys.js';
import { listApplications } from '../../applications/applications.js';
import { listMembers } from '../../developer/members.js';
import { membershipOf } from '../../developer/organizations.js';
import { listPersonalAccessTokens } from '../../developer/access-tokens/tokens.js';
import { appScopedUserId } from '../../keys/keyed.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import { listTestUsers } from '../../sandbox/test-users.js';
import { csrfTokenFor } from '../../sessions/session-cookie.js';
import type { WebhookDeps } from '../../webhooks/deps.js';
import type { Dashboard } from '../console-action.js';
import type { ConsolePage } from '../console-page.js';
import { renderDashboard, renderNoOrganization } from '../console-pages.js';
import { consolePersonActions } from './console-person-actions.js';
import { consoleWebhooks } from './console-webhooks.js';

export function consoleDashboard(deps: SandboxDeps & WebhookDeps, page: ConsolePage): Dashboard {
  return async (req, res, { session, developer }, status = 200, problems = []) => {
    // Independent reads: one round trip's wait, not nine.
    const [org, changes, applications, apiKeys, members, tokens, webhooks, actions, testUsers] = await Promise.all([
      deps.db.organization.findUniqueOrThrow({ where: { id: developer.organizationId } }),
      deps.db.authorization.findMany({
        where: { application: { organizationId: developer.organizationId }, status: { in: ['approved', 'consumed', 'revoked'] }, userId: { not: null } },
        include: { application: { select: { name: true } } },
        orderBy: { updatedAt: 'desc' },
        take: 10,
      }),
      listApplications(deps, developer),
      listApiKeys(deps, developer),
      listMembers(deps, developer),
      listPersonalAccessTokens(deps, developer),
      consoleWebhooks(deps, developer),
      consolePersonActions(deps, developer),
      deps.environment.sandbox ? listTestUsers(deps, developer.organizationId) : undefined,
    ]);
    page.send(
      res,
      status,
      renderDashboard(page.context(req), {
        csrf: csrfTokenFor(deps, session),
        email: session.email,
        organization: { name: org.name, role: developer.role, founderUserId: org.ownerUserId },
        applications: applications.items,
        apiKeys: apiKeys.items,
        members: members.items,
        tokens: tokens.items,
        webhooks,
        actions,
        ...(testUsers ? { testUsers: testUsers.items } : {}),
        changes: changes.map((a) => ({
          application: a.application.name,
          status: a.status === 'revoked' ? 'revoked' : 'active',
          updated_at: a.updatedAt.toISOString(),
          user: appScopedUserId(deps.config.IDP_SECRET, org.id, a.userId!),
        })),
        problems,
      }),
    );
  };
}

/**
 * GET /console, after readSession: the dashboard; for someone signed in who belongs to no
 * organization, the page that takes an invitation; for anyone else, the sign-in page.
 */
export function showConsole(deps: SandboxDeps, page: ConsolePage, dashboard: Dashboard, signInPage: RequestHandler): RequestHandler {
  return async (req, res, next) => {
    const session = res.locals.session;
    if (!session) return signInPage(req, res, next);
    const membership = await membershipOf(deps.db, session.userId).catch(() => undefined);
    if (!membership) return page.send(res, 200, renderNoOrganization(page.context(req), { csrf: csrfTokenFor(deps, session), email: session.email }));
    await dashboard(req, res, { session, developer: { userId: session.userId, organizationId: membership.organizationId, role: membership.role } });
  };
}
