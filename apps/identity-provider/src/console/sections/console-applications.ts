/**
 * The console's actions on the organization's applications and API keys, posted from those
 * sections: each goes through the function the API uses, so the console can do nothing the API cannot.
 */
import { ZCreateApiKeyRequest, ZCreateApplicationRequest } from '@svc/schemas';
import type { Request, Router } from 'express';
import { disableKey, makeApiKey } from '../../applications/api-keys.js';
import { registerApplication, revokeApplication, rotateSecret } from '../../applications/applications.js';
import type { SandboxDeps } from '../../sandbox/deps.js';
import type { ConsoleActions } from '../console-action.js';
import { clientIdParam, json, many, num, one, parsed, uuidParam } from '../console-forms.js';
import { consoleTexts } from '../texts/registry.js';

export function applicationActions(router: Router, deps: SandboxDeps, { signedIn, action, lang }: ConsoleActions): void {
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
        ...(one(form.default_acr_values) ? { default_acr_values: [one(form.default_acr_values)] } : {}),
        ...(num(form.default_max_age) !== undefined ? { default_max_age: num(form.default_max_age) } : {}),
        ...(one(form.sensitive_data_acr) ? { sensitive_data_acr: one(form.sensitive_data_acr) } : {}),
        ...(num(form.sensitive_data_max_age) !== undefined ? { sensitive_data_max_age: num(form.sensitive_data_max_age) } : {}),
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
}
