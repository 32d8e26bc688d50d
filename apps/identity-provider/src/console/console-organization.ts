/**
 * The console's actions on the organization, posted from its sections (applications, API keys,
 * members, tokens, and the sandbox's test users): each goes through the function the API uses, so
 * the console can do nothing the API cannot.
 */
import { HttpError } from '@svc/http';
import {
  ZAddMemberRequest,
  ZCreateApiKeyRequest,
  ZCreateApplicationRequest,
  ZCreateInitialAccessTokenRequest,
  ZCreatePersonalAccessTokenRequest,
  ZCreateTestUserRequest,
} from '@svc/schemas';
import type { Request, Router } from 'express';
import { disableKey, makeApiKey } from '../applications/api-keys.js';
import { registerApplication, revokeApplication, rotateSecret } from '../applications/applications.js';
import { invite, removeMember } from '../developer/members.js';
import { createInitialAccessToken, createPersonalAccessToken, revokePersonalAccessToken } from '../developer/tokens.js';
import type { SandboxDeps } from '../sandbox/deps.js';
import { createTestUser, deleteTestUser } from '../sandbox/test-users.js';
import { clientIdParam, json, many, num, one, parsed, uuidParam } from './console-forms.js';
import { consoleTexts } from './texts/registry.js';
import type { ConsoleActions } from './console-action.js';

export function organizationActions(router: Router, deps: SandboxDeps, { signedIn, action, lang }: ConsoleActions): void {
  const t = (req: Request) => consoleTexts(lang(req));
  router.post(
    '/console/applications',
    signedIn,
    action(async (developer, form) => {
      const body = parsed(ZCreateApplicationRequest, {
        name: one(form.name),
        redirect_uris: (one(form.redirect_uris) ?? '')
          .split(/\r?\n/)
          .map((u) => u.trim())
          .filter(Boolean),
        scopes: many(form.scopes),
        type: one(form.type),
        // A public application has no secret or keys: the method is the confidential one's choice.
        ...(one(form.type) === 'confidential' && one(form.token_endpoint_auth_method)
          ? { token_endpoint_auth_method: one(form.token_endpoint_auth_method) }
          : {}),
        ...(one(form.jwks) ? { jwks: json(form.jwks, 'jwks') } : {}),
        require_dpop: one(form.require_dpop) === 'true',
        requires_palm_verification: one(form.requires_palm_verification) === 'true',
        ...(one(form.fapi_profile) === 'fapi2' ? { fapi_profile: 'fapi2' } : {}),
        ...(num(form.preset_cache_ttl_seconds) !== undefined ? { preset_cache_ttl_seconds: num(form.preset_cache_ttl_seconds) } : {}),
      });
      const app = await registerApplication(deps, developer, body);
      if (!app.client_secret) return { section: 'applications' };
      return { secret: { heading: app.name, lines: [['client_id', app.client_id]], secret: app.client_secret } };
    }),
  );
  router.post(
    '/console/applications/:client_id/rotate-secret',
    signedIn,
    action(async (developer, _form, req) => {
      const rotated = await rotateSecret(deps, developer, clientIdParam(req));
      return { secret: { heading: t(req).rotateSecret, lines: [['client_id', rotated.client_id]], secret: rotated.client_secret } };
    }),
  );
  router.post(
    '/console/applications/:client_id/revoke',
    signedIn,
    action(async (developer, _form, req) => {
      await revokeApplication(deps, developer, clientIdParam(req));
      return { section: 'applications' };
    }),
  );
  router.post(
    '/console/api-keys',
    signedIn,
    action(async (developer, form, req) => {
      const body = parsed(ZCreateApiKeyRequest, {
        ...(one(form.name) ? { name: one(form.name) } : {}),
        permissions: many(form.permissions),
        ...(num(form.hourly_limit) !== undefined ? { hourly_limit: num(form.hourly_limit) } : {}),
        ...(num(form.burst_limit) !== undefined ? { burst_limit: num(form.burst_limit) } : {}),
      });
      const key = await makeApiKey(deps, developer, body);
      return { secret: { heading: t(req).apiKeys, lines: [['prefix', key.prefix]], secret: key.key } };
    }),
  );
  router.post(
    '/console/api-keys/:id/disable',
    signedIn,
    action(async (developer, _form, req) => {
      await disableKey(deps, developer, uuidParam(req, 'id'));
      return { section: 'api-keys' };
    }),
  );
  router.post(
    '/console/members',
    signedIn,
    action(async (developer, form, req) => {
      if (developer.role !== 'owner') throw new HttpError(403, 'forbidden', 'Only the organization owner may invite members');
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
