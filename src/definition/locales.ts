/**
 * The languages owner text may be written in: the widget's, English built in and one pack
 * per language in widget/i18n/ (a test holds this list to it).
 */
export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;

/** At most this many characters in each text. */
export const MAX_TEXT_LENGTH = 200;
