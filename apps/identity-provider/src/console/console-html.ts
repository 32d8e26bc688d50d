/** The console's small HTML pieces: every value escaped, every form posting with the session's CSRF token. */
import { escapeHtml as e } from '../views/pages.js';

export const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;
export const button = (action: string, csrf: string, label: string, primary = false) =>
  `<form class="inline" method="post" action="${e(action)}">${hidden('csrf_token', csrf)}<button${primary ? ' class="primary"' : ''}>${e(label)}</button></form>`;
export const field = (name: string, label: string, input: string) => `<label for="${name}">${e(label)}</label>${input}`;
export const text = (id: string, label: string, attrs = '', name = id) => field(id, label, `<input type="text" id="${id}" name="${name}" ${attrs}>`);
export const number = (name: string, label: string, attrs = '') => field(name, label, `<input type="number" id="${name}" name="${name}" ${attrs}>`);
export const check = (name: string, value: string, label: string, checked = false) =>
  `<span class="check"><input type="checkbox" id="${name}-${value}" name="${name}" value="${e(value)}"${checked ? ' checked' : ''}><label for="${name}-${value}">${e(label)}</label></span>`;
export const when = (iso: string | null) => (iso ? `<time datetime="${e(iso)}">${e(iso.slice(0, 16).replace('T', ' '))} UTC</time>` : '');
/** A list of cards, or the words for none. */
export const cards = <T>(items: T[], item: (x: T) => string, none: string) =>
  items.length ? `<ul class="cards">${items.map((x) => `<li>${item(x)}</li>`).join('')}</ul>` : `<p class="muted">${e(none)}</p>`;
