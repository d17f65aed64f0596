/**
 * Languages: English is built in; every other language is a pack fetched on demand from
 * the script's own origin under a content-hashed, immutable name, once per page and
 * language however many widgets use it (static-file.ts). A pack that fails to load leaves English.
 */
import { builtNames, fetchFile, fileInMemory } from './static-file.ts';

export type Pack = ReadonlyMap<string, string>;
/** Translates an English text (see texts.ts), filling its `{name}` slots. */
export type Translate = (english: string, slots?: Record<string, string>) => string;

// Set at bundle time to { de: "de.<hash>.json", … }.
declare const CALC_LANGUAGE_PACKS: Record<string, string> | undefined;
const PACK_FILES = builtNames(() => CALC_LANGUAGE_PACKS);

// Right-to-left scripts, for the packs that may come.
const RTL = new Set(['ar', 'he', 'fa', 'ur']);

export function translator(pack: Pack | undefined): Translate {
  return (english, slots = {}) => {
    let text = pack?.get(english) ?? english;
    for (const [name, value] of Object.entries(slots)) text = text.replace(`{${name}}`, value);
    return text;
  };
}

/** The language the texts are shown in: the locale's when a pack exists for it, else English. */
export function textLanguage(locale: string): string {
  const language = (locale.split('-')[0] ?? '').toLowerCase();
  return Object.hasOwn(PACK_FILES, language) ? language : 'en';
}

export const directionOf = (language: string): 'rtl' | 'ltr' => (RTL.has(language) ? 'rtl' : 'ltr');

const packUrl = (apiOrigin: string, language: string) => `${apiOrigin}/widget/i18n/${PACK_FILES[language]}`;

/** A pack already in memory: the pack, `null` for English, `undefined` when it must be fetched. */
export function packInMemory(apiOrigin: string, language: string): Pack | null | undefined {
  return language === 'en' ? null : (fileInMemory(packUrl(apiOrigin, language)) as Pack | undefined);
}

/** Only own string entries: a pack is data, and "__proto__" must stay a plain key. */
function toPack(json: unknown): Pack | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const pack = new Map<string, string>();
  for (const [english, text] of Object.entries(json)) if (typeof text === 'string') pack.set(english, text);
  return pack;
}

export const fetchPack = (apiOrigin: string, language: string): Promise<Pack | undefined> =>
  fetchFile(packUrl(apiOrigin, language), toPack);
