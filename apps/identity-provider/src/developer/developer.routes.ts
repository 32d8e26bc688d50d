import { Router } from 'express';
import { handle, methodNotAllowed } from '@svc/http';
import { ZAcceptInvitationRequest, ZAddMemberRequest, ZMemberParams, ZRenameOrganizationRequest, ZSignupConfirmRequest, ZSignupRequest } from '@svc/schemas';
import type { DeveloperDeps } from './deps.js';
import { organizationView, renameOrganization } from './organizations.js';
import { requireDeveloper, requireOwner } from './developer-auth.js';
import { requireSession } from '../sessions/session-cookie.js';
import { acceptInvitation, invite, listMembers, removeMember } from './members.js';
import { pickLocale } from '../views/locales/locale.js';
import { confirmSignUp, signUp } from './signup/signup.js';

/** Signing up (with the mailed link), and the organization with its members. */
export function developerRouter(deps: DeveloperDeps): Router {
  const router = Router();
  router
    .route('/v2/developer/signup')
    .post(
      handle({ body: ZSignupRequest }, async ({ body }, req, res) => {
        await deps.limits.signUp(req.ip ?? 'unknown');
        res.status(202).json(await signUp(deps, body, pickLocale(undefined, req.headers['accept-language'])));
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
      handle({ body: ZRenameOrganizationRequest }, requireDeveloper(deps, { csrf: true }), requireOwner('rename it'), async ({ body }, _req, res) => {
        res.json(await renameOrganization(deps.db, res.locals.developer!, body.name));
      }),
    )
    .all(methodNotAllowed);

  router
    .route('/v2/developer/members')
    .get(requireDeveloper(deps, { csrf: false }), async (_req, res) => {
      res.json(await listMembers(deps, res.locals.developer!));
    })
    .post(
      handle(
        { body: ZAddMemberRequest },
        requireDeveloper(deps, { csrf: true, sessionOnly: true }),
        requireOwner('invite members'),
        async ({ body }, _req, res) => {
          res.status(201).json(await invite(deps, res.locals.developer!, body));
        },
      ),
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

  return router;
}
