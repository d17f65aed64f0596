/**
 * Owner text (titles, labels, help, units, option and band labels): a string, or one
 * string per language of LOCALES (./locales.ts) with English required.
 */
import type { Text } from './types.ts';

/** The text in `locale`'s language ('de-AT' reads `de`), else in English. */
export function textIn(text: Text, locale: string): string {
  if (typeof text === 'string') return text;
  const language = languageOf(locale);
  const own = Object.hasOwn(text, language) ? (text as Record<string, unknown>)[language] : undefined;
  return typeof own === 'string' ? own : text.en;
}

/** A locale's language, lower-cased: 'de-AT' reads `de`. */
export const languageOf = (locale: string): string => locale.split('-')[0]?.toLowerCase() ?? '';
