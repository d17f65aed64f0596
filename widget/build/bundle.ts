/**
 * Bundles the embed script: widget/src/index.ts → one minified browser IIFE, and the
 * language packs (widget/i18n/*.json) → minified JSON under content-hashed names, which
 * the script knows. Run as a subprocess by the server's bundle macro (Bun.build cannot
 * run inside a macro) with `--json`, and by `bun widget/build/bundle.ts > widget.js` by hand.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compressed, type BuiltFile } from './compress.ts';
import { PACKS_DIR, packLanguages } from './packs.ts';
import { dropStrippedText, stripOwnerText } from './strip-owner-text.ts';
import { translatableTexts } from './texts.ts';

const root = join(import.meta.dir, '..', '..');
const calculatorsDir = join(root, 'src', 'calculators');

export interface LanguagePack {
  language: string;
  /** `<language>.<hash>.json`: a new text is a new name, so the file can be cached forever. */
  file: string;
  json: string;
}

/** Every pack, reduced to the texts the widget shows (a stale entry costs no bytes). */
export function readPacks(): LanguagePack[] {
  const keys = translatableTexts();
  return packLanguages().map((language) => {
    const all = JSON.parse(readFileSync(join(PACKS_DIR, `${language}.json`), 'utf8')) as Record<string, unknown>;
    const kept = Object.fromEntries(
      keys.flatMap((key) => (typeof all[key] === 'string' && Object.hasOwn(all, key) ? [[key, all[key]]] : [])),
    );
    const json = JSON.stringify(kept);
    const hash = createHash('sha256').update(json).digest('hex').slice(0, 12);
    return { language, file: `${language}.${hash}.json`, json };
  });
}

export async function bundleWidget(packs: LanguagePack[] = readPacks()): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(root, 'widget', 'src', 'index.ts')],
    target: 'browser',
    format: 'iife',
    minify: true,
    sourcemap: 'none',
    define: {
      CALC_LANGUAGE_PACKS: JSON.stringify(Object.fromEntries(packs.map((pack) => [pack.language, pack.file]))),
    },
    plugins: [
      {
        name: 'strip-owner-text',
        setup(build) {
          build.onLoad({ filter: /[\\/]src[\\/]calculators[\\/].+\.ts$/ }, async ({ path }) => {
            const source = await Bun.file(path).text();
            return {
              contents: path.startsWith(calculatorsDir) ? dropStrippedText(stripOwnerText(source)) : source,
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
  if (!result.success) throw new AggregateError(result.logs, 'widget bundle failed');
  const [output] = result.outputs;
  if (!output) throw new Error('widget bundle produced no output');
  return output.text();
}

/** What the server serves: the script and the packs by file name, each precompressed. */
export interface WidgetBundle {
  script: BuiltFile;
  packs: Record<string, BuiltFile>;
}

async function builtBundle(): Promise<WidgetBundle> {
  const packs = readPacks();
  const script = await compressed(await bundleWidget(packs));
  const built = await Promise.all(packs.map(async (pack) => [pack.file, await compressed(pack.json)] as const));
  return { script, packs: Object.fromEntries(built) };
}

if (import.meta.main) {
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(await builtBundle()));
  } else {
    process.stdout.write(await bundleWidget());
  }
}
