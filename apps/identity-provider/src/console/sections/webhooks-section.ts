/**
 * The console's webhook section: each endpoint with its state, its actions and its last deliveries
 * (a retry button on any not delivered), and the form that adds one. The same operations as
 * /v2/developer/webhooks, through the same functions.
 */
import { WEBHOOK_EVENT_TYPES } from '@svc/schemas';
import type { Locale } from '../../views/locales/locale.js';
import { escapeHtml as e } from '../../views/pages.js';
import type { deliveryView, endpointView } from '../../webhooks/endpoints.js';
import { button, cards, check, hidden, text, when } from '../console-html.js';
import type { WebhookTexts } from '../texts/console-texts.js';
import { consoleTexts } from '../texts/registry.js';

/** How many of an endpoint's deliveries the console shows (the API lists up to 200). */
export const CONSOLE_DELIVERIES = 5;

export type WebhookSummary = ReturnType<typeof endpointView> & { deliveries: ReturnType<typeof deliveryView>[] };

function delivery(t: WebhookTexts, csrf: string, endpointId: string, d: WebhookSummary['deliveries'][number]): string {
  const response =
    d.last_response_status !== null ? ` · HTTP ${d.last_response_status}${d.last_response_ms !== null ? ` in ${d.last_response_ms} ms` : ''}` : '';
  return `<code>${e(d.event_type)}</code> <span class="muted">${e(t.status[d.status])} · ${e(t.attempts(d.attempts))}${response}${d.last_attempt_at ? ` · ${when(d.last_attempt_at)}` : ''}</span>
${d.last_error ? `<div class="muted">${e(d.last_error)}</div>` : ''}${d.next_attempt_at ? `<div class="muted">${e(t.nextAttempt)} ${when(d.next_attempt_at)}</div>` : ''}
<div class="muted"><code>${e(d.webhook_id)}</code></div>
${d.status === 'succeeded' ? '' : button(`/console/webhooks/${endpointId}/deliveries/${d.id}/retry`, csrf, t.retry)}`;
}

function endpoint(t: WebhookTexts, csrf: string, w: WebhookSummary): string {
  const state = w.enabled ? t.enabled : w.disabled_reason === 'failing' ? t.disabledFailing : t.disabledByDeveloper;
  const path = `/console/webhooks/${w.id}`;
  return `<strong><code>${e(w.url)}</code></strong> <span class="muted">${e(state)}</span>
${w.description ? `<div>${e(w.description)}</div>` : ''}<div class="muted">${e(w.events.join(', '))}</div>
${w.previous_secret_expires_at ? `<div class="muted">${e(t.previousSecretUntil)} ${when(w.previous_secret_expires_at)}</div>` : ''}
${w.enabled ? `${button(`${path}/test`, csrf, t.sendTest)}${button(`${path}/disable`, csrf, t.disable)}` : button(`${path}/enable`, csrf, t.enable)}${button(`${path}/rotate-secret`, csrf, t.rotateSecret)}${button(`${path}/delete`, csrf, t.delete)}
<details${w.deliveries.some((d) => d.status !== 'succeeded') ? ' open' : ''}><summary>${e(t.deliveries)}</summary>${cards(w.deliveries, (d) => delivery(t, csrf, w.id, d), t.noDeliveries)}</details>`;
}

export function webhooksSection(lang: Locale, csrf: string, webhooks: WebhookSummary[]): string {
  const t = consoleTexts(lang).webhookSection;
  return `${cards(webhooks, (w) => endpoint(t, csrf, w), t.none)}
<form method="post" action="/console/webhooks">${hidden('csrf_token', csrf)}
${text('webhook-url', t.url, 'required maxlength="2048" inputmode="url" placeholder="https://api.example.com/webhooks"', 'url')}
${text('webhook-description', t.description, 'maxlength="200"', 'description')}
<fieldset><legend>${e(t.events)}</legend>${WEBHOOK_EVENT_TYPES.map((type) => check('events', type, type, type.startsWith('authorization.') || type === 'user.data_changed')).join('')}</fieldset>
<button class="primary">${e(t.add)}</button></form>`;
}
