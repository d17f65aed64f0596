import { Elysia, t, type TSchema } from 'elysia';
import { Definition } from '../../definition/schema.ts';
import { AppError } from '../../errors.ts';
import { bundleWidgetScript } from './bundle.macro.ts' with { type: 'macro' };
import type { BuiltFile } from './bundle.macro.ts';
import { answerFile, type ServedFile, servedFileOf } from '../../http/encoding.ts';

// Inlined at bundle time: the script, the language packs and the catalogue's template files,
// with gzip/brotli copies, as literals.
const bundle = bundleWidgetScript();

interface Served extends ServedFile {
  contentType: string;
  cacheControl: string;
}

const served = (file: BuiltFile, contentType: string, cacheControl: string): Served => ({
  ...servedFileOf(file),
  contentType,
  cacheControl,
});

/**
 * Caching: customers embed the unversioned URL `/widget.js` forever, so it cannot be
 * `immutable`. Five minutes of freshness means a fix reaches every page within minutes;
 * `stale-while-revalidate` lets browsers start the cached copy at once while they
 * revalidate with the ETag in the background (a 304 of a few hundred bytes).
 */
const script = served(
  bundle.script,
  'text/javascript; charset=utf-8',
  'public, max-age=300, stale-while-revalidate=86400',
);

const JSON_TYPE = 'application/json; charset=utf-8';

/** A language pack: each English text of the widget, by its English wording, in the pack's language. */
const LanguagePack = t.Record(t.String(), t.String(), {
  examples: [
    {
      Units: 'Einheiten',
      Weight: 'Gewicht',
      'Enter a number from {min} to {max}.': 'Geben Sie eine Zahl von {min} bis {max} ein.',
    },
  ],
});

// A pack's or template's name holds its content hash: a changed file is a new URL, so each
// can be kept a year. A Map: names like "__proto__" find nothing.
const hashedFiles = (files: Record<string, BuiltFile>, contentType = JSON_TYPE): ReadonlyMap<string, Served> =>
  new Map(
    Object.entries(files).map(([file, built]) => [
      file,
      served(built, contentType, 'public, max-age=31536000, immutable'),
    ]),
  );
const packs = hashedFiles(bundle.packs);
const templateFiles = hashedFiles(bundle.templates);
const chunks = hashedFiles(bundle.chunks, script.contentType);

/** Sizes of the served script, for the size checks and the benchmark. */
export const widgetScriptSizes = {
  raw: script.bodies.identity.byteLength,
  gzip: script.bodies.gzip.byteLength,
  br: script.bodies.br.byteLength,
} as const;

const sizesOf = (files: ReadonlyMap<string, Served>) =>
  [...files].map(([file, { bodies }]) => ({
    file,
    raw: bodies.identity.byteLength,
    gzip: bodies.gzip.byteLength,
    br: bodies.br.byteLength,
  }));

/** Each language pack's file name and sizes, for the checks and the benchmark. */
export const languagePackSizes = sizesOf(packs);

/** Each catalogue template file's name and sizes, for the checks and the benchmark. */
export const templateFileSizes = sizesOf(templateFiles);

/** Each chunk's file name and sizes, for the checks. */
export const chunkSizes = sizesOf(chunks);

function respond(request: Request, file: Served): Response {
  return answerFile(request, file, file.contentType, {
    'cache-control': file.cacheControl,
    // Any page may load these (the domain check guards the API, not the script).
    'cross-origin-resource-policy': 'cross-origin',
    'access-control-allow-origin': '*',
    'x-content-type-options': 'nosniff',
  });
}

/** The headers of a served file's answers, 200 and 304 alike. */
const CACHING_HEADERS = {
  ETag: { description: "The file's content hash: send it back in If-None-Match", schema: { type: 'string' as const } },
  'Cache-Control': { description: 'How long a browser may keep the file', schema: { type: 'string' as const } },
};

/**
 * How the reference documents a served file: its media type and body, and the 304 of a
 * matching ETag.
 */
function servedFile(contentType: string, description: string, schema: Record<string, unknown> = { type: 'string' }) {
  return {
    200: { description, headers: CACHING_HEADERS, content: { [contentType]: { schema } } },
    304: { description: 'Not modified: the If-None-Match ETag is current', headers: CACHING_HEADERS },
  };
}

/**
 * GET `path` for a set of content-hashed files: each by its name, any other name a 404 in
 * the error shape. The reference's example is a name this build serves.
 */
function hashedFileRoute(
  path: string,
  files: ReadonlyMap<string, Served>,
  text: { missing: string; summary: string; body: string },
  schema: TSchema,
  contentType = JSON_TYPE,
) {
  return new Elysia({ tags: ['widget'] }).get(
    path,
    ({ request, params }) => {
      const file = files.get(params.file);
      if (!file) throw new AppError('not_found', text.missing);
      return respond(request, file);
    },
    {
      params: t.Object({ file: t.String({ examples: [...files.keys()].slice(0, 1) }) }),
      detail: {
        summary: text.summary,
        responses: servedFile(contentType, text.body, schema as Record<string, unknown>),
      },
    },
  );
}

/** Serves the embed script, its language packs, template files and chunks, precompressed, with ETags for cheap revalidation. */
export function widgetScriptModule() {
  return new Elysia({ tags: ['widget'] })
    .get('/widget.js', ({ request }) => respond(request, script), {
      detail: {
        summary: 'The embed script (minified, precompressed)',
        responses: servedFile(script.contentType, 'The script, gzip or brotli when accepted'),
      },
    })
    .use(
      hashedFileRoute(
        '/widget/i18n/:file',
        packs,
        {
          missing: 'There is no such language pack.',
          summary: 'A language pack of the widget (content-hashed name, cached for a year)',
          body: "The pack's texts, gzip or brotli when accepted",
        },
        LanguagePack,
      ),
    )
    .use(
      hashedFileRoute(
        '/widget/calculators/:file',
        templateFiles,
        {
          missing: 'There is no such calculator file.',
          summary:
            "A catalogue calculator's template, which the widget renders (content-hashed name, cached for a year)",
          body: 'The definition, as the load answer carries it; gzip or brotli when accepted',
        },
        Definition,
      ),
    )
    .use(
      hashedFileRoute(
        '/widget/chunks/:file',
        chunks,
        {
          missing: 'There is no such script chunk.',
          summary:
            'A part of the embed script that only some widgets load, such as the results form (content-hashed name, cached for a year)',
          body: 'An ES module, gzip or brotli when accepted',
        },
        t.String({ description: 'JavaScript' }),
        script.contentType,
      ),
    );
}
