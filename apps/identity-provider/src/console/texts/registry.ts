import type { Locale } from '../../views/locales/locale.js';
import type { ConsoleTexts } from './console-texts.js';
import { de } from './de.js';
import { en } from './en.js';
import { fr } from './fr.js';

/** The developer console's texts, one file per language. */
const CONSOLE_TEXTS: Record<Locale, ConsoleTexts> = { en, de, fr };

export const consoleTexts = (locale: Locale): ConsoleTexts => CONSOLE_TEXTS[locale];
