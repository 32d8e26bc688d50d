/**
 * The languages of the hosted pages and the console, by primary language tag (BCP 47). Each
 * surface keeps one file per language and a registry typed Record<Locale, …>, so TypeScript names
 * the file a new language still lacks: docs/identity-provider.md, "Adding a language".
 */
export const LOCALES = ['en', 'de', 'fr'] as const;
export type Locale = (typeof LOCALES)[number];

const supported = (tag: string): Locale | undefined => {
  const primary = tag.trim().toLowerCase().split('-')[0]!;
  return LOCALES.find((locale) => locale === primary);
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
