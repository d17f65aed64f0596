import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The language packs' home: one `<language>.json` per language besides English. */
export const PACKS_DIR = join(import.meta.dir, '..', 'i18n');

/** The languages with a pack, sorted (`de`, `es`, …); English is built into the widget. */
export function packLanguages(): string[] {
  return readdirSync(PACKS_DIR)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => basename(name, '.json'));
}
