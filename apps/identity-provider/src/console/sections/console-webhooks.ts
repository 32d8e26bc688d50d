/**
 * The console's webhook actions, posted from its webhook section: each goes through the function
 * /v2/developer/webhooks uses, so the console can do nothing the API cannot.
 */
import { ZCreateWebhookRequest } from '@svc/schemas';
import type { Request, Router } from 'express';
import type { Developer } from '../../developer/developer-auth.js';
import type { WebhookDeps } from '../../webhooks/deps.js';
import {
  createWebhook,
  deleteWebhook,
  deliveryView,
  endpointView,
  retryDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  updateWebhook,
} from '../../webhooks/endpoints.js';
import { many, one, parsed, uuidParam } from '../console-forms.js';
import type { ConsoleActions, Outcome } from '../console-action.js';
import { consoleTexts } from '../texts/registry.js';
import { CONSOLE_DELIVERIES, type WebhookSummary } from './webhooks-section.js';

/** The organization's endpoints, each with its last deliveries, newest first. */
export async function consoleWebhooks(deps: WebhookDeps, developer: Developer): Promise<WebhookSummary[]> {
  const now = deps.clock.now();
  const endpoints = await deps.db.webhookEndpoint.findMany({
    where: { organizationId: developer.organizationId },
    orderBy: { createdAt: 'asc' },
    include: { deliveries: { include: { event: { select: { type: true } } }, orderBy: { createdAt: 'desc' }, take: CONSOLE_DELIVERIES } },
  });
  return endpoints.map((w) => ({ ...endpointView(w, now), deliveries: w.deliveries.map(deliveryView) }));
}

export function webhookActions(router: Router, deps: WebhookDeps, { signedIn, action, lang }: ConsoleActions): void {
  const done = { section: 'webhooks' };
  const secretPage = (req: Request, made: { id: string; url: string; secret: string }): Outcome => ({
    secret: { heading: made.url, lines: [['id', made.id]], secret: made.secret, note: consoleTexts(lang(req)).webhookSection.secretOnce },
  });
  router.post(
    '/console/webhooks',
    signedIn,
    action(async (developer, form, req) => {
      const body = parsed(ZCreateWebhookRequest, {
        url: one(form.url),
        events: many(form.events),
        ...(one(form.description) ? { description: one(form.description) } : {}),
      });
      return secretPage(req, await createWebhook(deps, developer, body));
    }),
  );
  router.post(
    '/console/webhooks/:id/rotate-secret',
    signedIn,
    action(async (developer, _form, req) => secretPage(req, await rotateWebhookSecret(deps, developer, uuidParam(req, 'id')))),
  );
  router.post(
    '/console/webhooks/:id/test',
    signedIn,
    action(async (developer, _form, req) => {
      await sendTestEvent(deps, developer, uuidParam(req, 'id'));
      return done;
    }),
  );
  for (const [verb, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const)
    router.post(
      `/console/webhooks/:id/${verb}`,
      signedIn,
      action(async (developer, _form, req) => {
        await updateWebhook(deps, developer, uuidParam(req, 'id'), { enabled });
        return done;
      }),
    );
  router.post(
    '/console/webhooks/:id/delete',
    signedIn,
    action(async (developer, _form, req) => {
      await deleteWebhook(deps, developer, uuidParam(req, 'id'));
      return done;
    }),
  );
  router.post(
    '/console/webhooks/:id/deliveries/:delivery_id/retry',
    signedIn,
    action(async (developer, _form, req) => {
      await retryDelivery(deps, developer, uuidParam(req, 'id'), uuidParam(req, 'delivery_id'));
      return done;
    }),
  );
}
