/**
 * The console's actions on the organization, posted from its sections (members, tokens, and the
 * sandbox's test users): each goes through the function the API uses, so the console can do
 * nothing the API cannot.
 */
import { ZAddMemberRequest, ZCreateInitialAccessTokenRequest, ZCreatePersonalAccessTokenRequest, ZCreateTestUserRequest } from '@svc/schemas';
import type { Request, Router } from 'express';
import { invite, removeMember } from '../../developer/members.js';
import { createInitialAccessToken, createPersonalAccessToken, revokePersonalAccessToken } from '../../developer/access-tokens/tokens.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import { createTestUser, deleteTestUser } from '../../sandbox/test-users.js';
import { json, num, one, parsed, uuidParam } from '../console-forms.js';
import { consoleTexts } from '../texts/registry.js';
import type { ConsoleActions } from '../console-action.js';

export function organizationActions(router: Router, deps: SandboxDeps, { signedIn, ownerOnly, action, lang }: ConsoleActions): void {
  const t = (req: Request) => consoleTexts(lang(req));
  router.post(
    '/console/members',
    signedIn,
    ownerOnly('invite members'),
    action(async (developer, form, req) => {
      const invited = await invite(deps, developer, parsed(ZAddMemberRequest, { email: one(form.email), role: one(form.role) }));
      return {
        secret: {
          heading: t(req).invite,
          lines: [
            [t(req).email, invited.email],
            [t(req).role, invited.role],
          ],
          secret: invited.invitation_token,
        },
      };
    }),
  );
  router.post(
    '/console/members/:user_id/remove',
    signedIn,
    action(async (developer, _form, req) => {
      await removeMember(deps, developer, uuidParam(req, 'user_id'));
      return { section: 'members' };
    }),
  );
  router.post(
    '/console/personal-access-tokens',
    signedIn,
    action(async (developer, form, req) => {
      const made = await createPersonalAccessToken(
        deps,
        developer,
        parsed(ZCreatePersonalAccessTokenRequest, {
          name: one(form.name),
          ...(num(form.expires_in_days) ? { expires_in_days: num(form.expires_in_days) } : {}),
        }),
      );
      return { secret: { heading: t(req).personalAccessToken, lines: [[t(req).name, made.name]], secret: made.token } };
    }),
  );
  router.post(
    '/console/personal-access-tokens/:id/revoke',
    signedIn,
    action(async (developer, _form, req) => {
      await revokePersonalAccessToken(deps, developer, uuidParam(req, 'id'));
      return { section: 'tokens' };
    }),
  );
  router.post(
    '/console/initial-access-tokens',
    signedIn,
    action(async (developer, form, req) => {
      const made = await createInitialAccessToken(
        deps,
        developer,
        parsed(ZCreateInitialAccessTokenRequest, num(form.expires_in_hours) ? { expires_in_hours: num(form.expires_in_hours) } : {}),
      );
      return { secret: { heading: t(req).initialAccessToken, lines: [['expires_at', made.expires_at]], secret: made.token } };
    }),
  );
  if (deps.environment.sandbox) {
    router.post(
      '/console/test-users',
      signedIn,
      action(async (developer, form, req) => {
        const body = parsed(ZCreateTestUserRequest, {
          palm_verified: one(form.palm_verified) === 'true',
          ...(one(form.wallet_address) ? { wallet_address: one(form.wallet_address) } : {}),
          presets: json(form.presets, 'presets') ?? {},
          statuses: json(form.statuses, 'statuses') ?? {},
        });
        await deps.limits.testData(developer.organizationId);
        const user = await createTestUser(deps, developer.organizationId, body);
        return {
          secret: {
            heading: t(req).testUserCreated,
            title: t(req).testUserCreated,
            lines: [
              [t(req).email, user.email],
              ['user_id', user.user_id],
            ],
            label: t(req).testUserPassword,
            secret: user.password,
            note: t(req).testUserPasswordOnce,
          },
        };
      }),
    );
    router.post(
      '/console/test-users/:user_id/delete',
      signedIn,
      action(async (developer, _form, req) => {
        await deleteTestUser(deps, developer.organizationId, uuidParam(req, 'user_id'));
        return { section: 'test-users' };
      }),
    );
  }
}
