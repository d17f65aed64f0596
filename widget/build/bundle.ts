/**
 * Bundles the embed script: widget/src/index.ts → one minified browser IIFE; the language
 * packs (widget/i18n/*.json) and the catalogue's templates → minified JSON, and the parts
 * only some widgets need (widget/src/chunks.ts) → minified ES modules, all under
 * content-hashed names, which the script knows. Run as a subprocess by the server's
 * bundle macro (Bun.build cannot run inside a macro) with `--json`, and by
 * `bun widget/build/bundle.ts > widget.js` by hand.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { templates } from '../../src/calculators/index.ts';
import { compressed, type BuiltFile } from './compress.ts';
import { PACKS_DIR, packLanguages } from './packs.ts';
import { translatableTexts } from './texts.ts';

const root = join(import.meta.dir, '..', '..');

/** A static JSON file the script fetches: a new content is a new name, so it can be cached forever. */
interface HashedFile {
  /** `<name>.<hash>.json`. */
  file: string;
  json: string;
}

export interface LanguagePack extends HashedFile {
  language: string;
}

/** A catalogue template's definition, exactly as the load answer carries it (`calculator.definition`). */
export interface TemplateFile extends HashedFile {
  id: string;
}

const hashOf = (json: string): string => createHash('sha256').update(json).digest('hex').slice(0, 12);

/** Every pack, reduced to the texts the widget shows (a stale entry costs no bytes). */
export function readPacks(): LanguagePack[] {
  const keys = translatableTexts();
  return packLanguages().map((language) => {
    const all = JSON.parse(readFileSync(join(PACKS_DIR, `${language}.json`), 'utf8')) as Record<string, unknown>;
    const kept = Object.fromEntries(
      keys.flatMap((key) => (typeof all[key] === 'string' && Object.hasOwn(all, key) ? [[key, all[key]]] : [])),
    );
    const json = JSON.stringify(kept);
    return { language, file: `${language}.${hashOf(json)}.json`, json };
  });
}

/**
 * The catalogue's templates, one file each: the script renders a catalogue calculator
 * from its file, fetched beside the load request, instead of carrying all twelve
 * (docs/decisions.md, "Templates as files").
 */
export function readTemplateFiles(): TemplateFile[] {
  return templates.map(({ definition }) => {
    const json = JSON.stringify(definition);
    return { id: definition.id, file: `${definition.id}.${hashOf(json)}.json`, json };
  });
}

/** A part of the script that only some widgets need: an ES module the script imports when one does. */
export interface ChunkFile {
  name: string;
  /** `<name>.<hash>.js`. */
  file: string;
  text: string;
}

/** The chunks by name, each the module its source file exports. */
const CHUNKS = { results: 'results.ts' } as const;

async function buildChunks(): Promise<ChunkFile[]> {
  return Promise.all(
    Object.entries(CHUNKS).map(async ([name, source]) => {
      const result = await Bun.build({
        entrypoints: [join(root, 'widget', 'src', source)],
        target: 'browser',
        format: 'esm',
        minify: true,
        sourcemap: 'none',
      });
      const [output] = result.outputs;
      if (!result.success || !output) throw new AggregateError(result.logs, `widget chunk ${name} failed`);
      const text = await output.text();
      return { name, file: `${name}.${hashOf(text)}.js`, text };
    }),
  );
}

export async function bundleWidget(
  packs: LanguagePack[] = readPacks(),
  templateFiles: TemplateFile[] = readTemplateFiles(),
  chunks?: ChunkFile[],
): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(root, 'widget', 'src', 'index.ts')],
    target: 'browser',
    format: 'iife',
    minify: true,
    sourcemap: 'none',
    define: {
      CALC_LANGUAGE_PACKS: JSON.stringify(Object.fromEntries(packs.map((pack) => [pack.language, pack.file]))),
      CALC_TEMPLATES: JSON.stringify(Object.fromEntries(templateFiles.map((template) => [template.id, template.file]))),
      CALC_CHUNKS: JSON.stringify(Object.fromEntries((chunks ?? (await buildChunks())).map((c) => [c.name, c.file]))),
    },
  });
  if (!result.success) throw new AggregateError(result.logs, 'widget bundle failed');
  const [output] = result.outputs;
  if (!output) throw new Error('widget bundle produced no output');
  return output.text();
}

/** What the server serves: the script, and the packs, templates and chunks by file name, each precompressed. */
export interface WidgetBundle {
  script: BuiltFile;
  packs: Record<string, BuiltFile>;
  templates: Record<string, BuiltFile>;
  chunks: Record<string, BuiltFile>;
}

const byFile = async (files: { file: string; text: string }[]): Promise<Record<string, BuiltFile>> =>
  Object.fromEntries(await Promise.all(files.map(async ({ file, text }) => [file, await compressed(text)] as const)));

const asText = (files: HashedFile[]) => files.map(({ file, json }) => ({ file, text: json }));

async function builtBundle(): Promise<WidgetBundle> {
  const packs = readPacks();
  const templateFiles = readTemplateFiles();
  const chunks = await buildChunks();
  const script = await compressed(await bundleWidget(packs, templateFiles, chunks));
  return {
    script,
    packs: await byFile(asText(packs)),
    templates: await byFile(asText(templateFiles)),
    chunks: await byFile(chunks),
  };
}

if (import.meta.main) {
  if (process.argv.includes('--json')) {
    process.stdout.write(JSON.stringify(await builtBundle()));
  } else {
    process.stdout.write(await bundleWidget());
  }
}
