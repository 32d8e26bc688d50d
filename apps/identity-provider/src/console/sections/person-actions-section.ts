/**
 * The console's section of actions counted per person (one vote, one claim): each action with its
 * limit and how many proofs it has counted, a form to change it, and the form that adds one. The
 * same operations as /v2/developer/actions, through the same functions.
 */
import { ACTION_PERIODS, type Action, type ActionPeriod } from '@svc/schemas';
import type { Locale } from '../../views/locales/locale.js';
import { escapeHtml as e } from '../../views/pages.js';
import { button, cards, field, hidden, text, when } from '../console-html.js';
import type { ActionTexts } from '../texts/console-texts.js';
import { consoleTexts } from '../texts/registry.js';

/** An action as the console lists it: the API's view and the proofs counted under it. */
export type ActionSummary = Action & { proofs: number };

/** The fields an action's form shares with the form that adds one; `id` keeps each form's labels apart. */
function limitFields(t: ActionTexts, id: string, a?: ActionSummary): string {
  const periods = ACTION_PERIODS.map(
    (p: ActionPeriod) => `<option value="${p}"${(a?.period ?? 'never') === p ? ' selected' : ''}>${e(t.periods[p])}</option>`,
  ).join('');
  return `${text(`${id}-description`, t.description, `maxlength="200"${a?.description ? ` value="${e(a.description)}"` : ''}`, 'description')}
${field(`${id}-max`, t.maxPerPerson, `<input type="number" id="${id}-max" name="max_per_person" min="1" max="1000000" required value="${a?.max_per_person ?? 1}">`)}
${field(`${id}-period`, t.period, `<select id="${id}-period" name="period">${periods}</select>`)}
<span class="check"><input type="checkbox" id="${id}-palm" name="requires_palm_verification" value="true"${(a?.requires_palm_verification ?? true) ? ' checked' : ''}><label for="${id}-palm">${e(t.requiresPalm)}</label></span>`;
}

function action(t: ActionTexts, csrf: string, sandbox: boolean, a: ActionSummary): string {
  const path = `/console/actions/${encodeURIComponent(a.action)}`;
  return `<strong><code>${e(a.action)}</code></strong> <span class="muted">${e(t.limit(a.max_per_person, t.periods[a.period]))}${a.requires_palm_verification ? ` · ${e(t.palmRequired)}` : ''}</span>
${a.description ? `<div>${e(a.description)}</div>` : ''}<div class="muted">${e(t.counted(a.proofs))} · ${when(a.created_at)}</div>
<details><summary>${e(t.change)}</summary><form method="post" action="${e(path)}">${hidden('csrf_token', csrf)}
${limitFields(t, `action-${a.action}`, a)}
<button class="primary">${e(t.save)}</button></form></details>
${sandbox ? button(`${path}/reset`, csrf, t.reset) : ''}${button(`${path}/delete`, csrf, t.delete)}`;
}

export function personActionsSection(lang: Locale, csrf: string, sandbox: boolean, actions: ActionSummary[]): string {
  const t = consoleTexts(lang).actionSection;
  return `<p class="muted">${e(t.intro)}</p>
${cards(actions, (a) => action(t, csrf, sandbox, a), t.none)}
<form method="post" action="/console/actions">${hidden('csrf_token', csrf)}
${text('action-name', `${t.name} (${t.nameHint})`, 'required maxlength="64" autocomplete="off" placeholder="vote-2026"', 'action')}
${limitFields(t, 'new-action')}
<button class="primary">${e(t.add)}</button></form>`;
}
