import { de } from './de.js';
import { en } from './en.js';
import { fr } from './fr.js';
import type { Messages } from './messages.js';

export type { Messages } from './messages.js';

const LOCALES = { en, de, fr } as const;
export type Locale = keyof typeof LOCALES;

const supported = (tag: string): Locale | undefined => {
  const primary = tag.trim().toLowerCase().split('-')[0]!;
  return primary in LOCALES ? (primary as Locale) : undefined;
};

/**
 * The page language: the authorization request's `locale` (BCP 47, e.g. `de-CH`) when we have
 * it, else the browser's Accept-Language by preference, else English. Parsed by splitting, so
 * no header can make it slow.
 */
export function pickLocale(requested: string | null | undefined, acceptLanguage: string | undefined): Locale {
  const fromRequest = requested ? supported(requested) : undefined;
  if (fromRequest) return fromRequest;
  const ranked = (acceptLanguage ?? '')
    .slice(0, 500)
    .split(',')
    .slice(0, 20)
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag, q: q ? Number(q.slice(2)) : 1, i };
    })
    .filter((l) => Number.isFinite(l.q) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of ranked) {
    const locale = supported(tag);
    if (locale) return locale;
  }
  return 'en';
}

export function messages(locale: Locale): Messages {
  return LOCALES[locale];
}
