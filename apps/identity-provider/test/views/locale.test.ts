import { describe, expect, it } from '@jest/globals';
import { LOCALES, pickLocale } from '../../src/views/locales/locale.js';

describe('pickLocale', () => {
  it('picks each language by its primary tag, from the request before the browser', () => {
    for (const locale of LOCALES) expect(pickLocale(`${locale}-XX`, 'fr;q=0.5')).toBe(locale);
    expect(pickLocale(undefined, 'es, de;q=0.8, fr;q=0.9')).toBe('fr');
  });

  it('falls back to English for a language it lacks, or a name every object has', () => {
    for (const tag of ['es', 'constructor', '__proto__', 'toString']) expect(pickLocale(tag, tag)).toBe('en');
  });
});
