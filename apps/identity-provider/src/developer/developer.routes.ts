import { Router, type Request } from 'express';
import { handle, methodNotAllowed, readAuthorization } from '@svc/http';
import {
  ZAcceptInvitationRequest,
  ZAddMemberRequest,
  ZAuthorizationListQuery,
  ZCreateInitialAccessTokenRequest,
  ZCreatePersonalAccessTokenRequest,
  ZMemberParams,
  ZRenameOrganizationRequest,
  ZSignupConfirmRequest,
  ZSignupRequest,
  ZTokenIdParams,
} from '@svc/schemas';
import type { DeveloperDeps } from './deps.js';
import { requireClientToken } from '../access-token-guard/access-token-guard.js';
import { developerAuthRequired } from '../errors.js';
import { authenticateGuarded, presentedCredentials } from '../clients/client-auth.js';
import { authorizationChanges, membershipOf, organizationView, renameOrganization } from './organizations.js';
import { bearerToken, checkedDeveloper, isPersonalAccessToken, requireDeveloper, requireOwner } from './developer-auth.js';
import { optionalSession, requireSession } from '../sessions/session-cookie.js';
import { acceptInvitation, invite, listMembers, removeMember } from './members.js';
import { confirmSignUp, signUp } from './signup.js';
import {
  createInitialAccessToken,
  createPersonalAccessToken,
  listInitialAccessTokens,
  listPersonalAccessTokens,
  revokeInitialAccessToken,
  revokePersonalAccessToken,
} from './tokens.js';

/**
 * The organization a caller of the change list speaks for: a client's (HTTP Basic, or the client's
 * own client_credentials token with authorizations:read), or a developer's (session or personal
 * access token).
 */
async function callerOrganization(deps: DeveloperDeps, req: Request): Promise<string> {
  if (req.headers.authorization?.startsWith('Basic ')) {
    const presented = presentedCredentials(deps.config, req, {});
    return (await authenticateGuarded(deps, presented, req.ip)).organizationId;
  }
  const presented = readAuthorization(req)?.token;
  if (presented?.split('.').length === 3) return (await requireClientToken(deps, req, 'authorizations:read')).organizationId;
  if (isPersonalAccessToken(bearerToken(req))) return (await checkedDeveloper(deps, req, { csrf: false })).organizationId;
  const session = await optionalSession(deps, req);
  if (!session) throw developerAuthRequired();
  return (await membershipOf(deps.db, session.userId)).organizationId;
}

/** The organization, its members and tokens, its change list, and signing up (with the mailed link). */
export function developerRouter(deps: DeveloperDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/signup')
    .post(
      handle({ body: ZSignupRequest }, async ({ body }, req, res) => {
        await deps.limits.signUp(req.ip ?? 'unknown');
        res.status(202).json(await signUp(deps, body));
      }),
    )
    .all(methodNotAllowed);
  // The mailed link's token and the sign-up's password: the account exists from here on.
  router
    .route('/v2/developer/signup/confirm')
    .post(
      handle({ body: ZSignupConfirmRequest }, async ({ body }, _req, res) => {
        const { user_id, organization_id } = await confirmSignUp(deps, body);
        res.status(201).json({ user_id, organization_id });
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/organization')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      const developer = res.locals.developer!;
      const org = await deps.db.organization.findUniqueOrThrow({ where: { id: developer.organizationId } });
      res.json(organizationView(org, developer.userId));
    })
    .put(
      handle({ body: ZRenameOrganizationRequest }, requireDeveloper(deps, { csrf: true }), async ({ body }, _req, res) => {
        const developer = res.locals.developer!;
        requireOwner(developer, 'rename it');
        res.json(await renameOrganization(deps.db, developer, body.name));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/members')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listMembers(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZAddMemberRequest }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ body }, _req, res) => {
        const developer = res.locals.developer!;
        requireOwner(developer, 'invite members');
        res.status(201).json(await invite(deps, developer, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/members/:user_id')
    .delete(
      handle({ params: ZMemberParams }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ params }, _req, res) => {
        await removeMember(deps, res.locals.developer!, params.user_id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);
  // Someone with an account joins an organization that invited their email: signed in, not yet a member there.
  router
    .route('/v2/developer/invitations/accept')
    .post(
      handle({ body: ZAcceptInvitationRequest }, requireSession(deps, { csrf: true }), async ({ body }, _req, res) => {
        res.json(await acceptInvitation(deps, res.locals.session!, body.invitation_token));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/personal-access-tokens')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listPersonalAccessTokens(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreatePersonalAccessTokenRequest }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ body }, _req, res) => {
        res.status(201).json(await createPersonalAccessToken(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/personal-access-tokens/:id')
    .delete(
      handle({ params: ZTokenIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await revokePersonalAccessToken(deps, res.locals.developer!, params.id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/initial-access-tokens')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listInitialAccessTokens(deps, res.locals.developer!));
    })
    .post(
      handle({ body: ZCreateInitialAccessTokenRequest }, requireDeveloper(deps, { csrf: true, sessionOnly: true }), async ({ body }, _req, res) => {
        res.status(201).json(await createInitialAccessToken(deps, res.locals.developer!, body));
      }),
    )
    .all(methodNotAllowed);
  router
    .route('/v2/developer/initial-access-tokens/:id')
    .delete(
      handle({ params: ZTokenIdParams }, requireDeveloper(deps, { csrf: true }), async ({ params }, _req, res) => {
        await revokeInitialAccessToken(deps, res.locals.developer!, params.id);
        res.status(204).end();
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/authorizations')
    .get(
      handle({ query: ZAuthorizationListQuery }, async ({ query }, req, res) => {
        res.json(await authorizationChanges(deps.db, deps.config.IDP_SECRET, await callerOrganization(deps, req), query));
      }),
    )
    .all(methodNotAllowed);
  return router;
}
