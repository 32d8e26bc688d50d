import { de } from './de.js';
import { en } from './en.js';
import { fr } from './fr.js';
import type { Locale } from './locale.js';
import type { PageTexts } from './page-texts.js';

/** The hosted pages' texts, one file per language. */
const PAGE_TEXTS: Record<Locale, PageTexts> = { en, de, fr };

export const pageTexts = (locale: Locale): PageTexts => PAGE_TEXTS[locale];
