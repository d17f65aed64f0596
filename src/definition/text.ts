/**
 * Owner text (titles, labels, help, units, option and band labels): a string, or one
 * string per language with English required. The languages are the widget's: English,
 * built in, and one pack per language in widget/i18n/ (a test holds this list to it).
 */
import type { Text } from './types.ts';

export const LOCALES = ['en', 'de', 'fr', 'es', 'it', 'nl', 'pt', 'pl'] as const;

/** At most this many characters in each text. */
export const MAX_TEXT_LENGTH = 200;

/** The text in `locale`'s language ('de-AT' reads `de`), else in English. */
export function textIn(text: Text, locale: string): string {
  if (typeof text === 'string') return text;
  const language = locale.split('-')[0]?.toLowerCase() ?? '';
  const own = Object.hasOwn(text, language) ? (text as Record<string, unknown>)[language] : undefined;
  return typeof own === 'string' ? own : text.en;
}
