import type { Static } from 'elysia';
import type { CalculatorResolver } from '../../calculator-resolver.ts';
import type { ResultKey, ResultRow, ResultsCursor, ResultsFilter, ResultsStore } from '../../db/results-store.ts';
import type { ExportQuery } from './model.ts';
import { filterOf, type ResultJsonBody, resultJson } from './service.ts';

/**
 * `GET /v1/results/export` (docs/results.md, "Exporting"): every result the filters
 * select, newest first, streamed a page at a time (keyset pagination under the stream),
 * so that memory holds one page whatever the size of the export.
 */

/** Rows read per page of the stream. */
const EXPORT_PAGE = 100;

/** The columns every CSV export starts with, and how each reads a result. */
const FIXED_COLUMNS: [string, (r: ResultJsonBody) => unknown][] = [
  ['id', (r) => r.id],
  ['createdAt', (r) => r.createdAt],
  ['calcId', (r) => r.calcId],
  ['domain', (r) => r.domain],
  ['units', (r) => r.units],
  ['contact.email', (r) => r.contact.email],
  ['contact.name', (r) => r.contact.name],
  ['visitor', (r) => r.visitor],
  ['page', (r) => r.page],
  ['utm.source', (r) => r.utm.source],
  ['utm.medium', (r) => r.utm.medium],
  ['utm.campaign', (r) => r.utm.campaign],
  ['utm.term', (r) => r.utm.term],
  ['utm.content', (r) => r.utm.content],
  ['consent.text', (r) => r.consent?.text],
  ['consent.at', (r) => r.consent?.at],
];

// A spreadsheet reads a cell starting with one of these as a formula (CSV injection).
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One CSV cell: numbers and booleans as they are (calc wrote them), text with a leading
 * `'` when a spreadsheet would run it as a formula, quoted when it holds a comma, a
 * quote or a line break. Empty for a missing value.
 */
function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  let text = typeof value === 'string' ? value : JSON.stringify(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * The input and output columns: for each calculator in the export (by id), its keys in
 * the order of its definition as served now, then keys only older versions had (by name);
 * a key that several calculators share is one column (each row names its calculator).
 */
async function keyColumns(
  deps: { resolve: CalculatorResolver },
  accountId: string,
  keys: ResultKey[],
): Promise<{ inputs: string[]; outputs: string[] }> {
  const byCalc = new Map<string, ResultKey[]>();
  for (const key of keys) byCalc.set(key.calcId, [...(byCalc.get(key.calcId) ?? []), key]);
  const inputs = new Set<string>();
  const outputs = new Set<string>();
  for (const calcId of [...byCalc.keys()].sort()) {
    const held = byCalc.get(calcId) ?? [];
    const definition = (await deps.resolve(accountId, calcId))?.definition;
    const order = (kind: ResultKey['kind'], known: readonly string[]) => {
      const present = new Set(held.filter((k) => k.kind === kind).map((k) => k.key));
      return [...known.filter((k) => present.has(k)), ...[...present].filter((k) => !known.includes(k)).sort()];
    };
    for (const key of order('input', definition?.inputs.map((i) => i.key) ?? [])) inputs.add(key);
    for (const key of order('output', definition?.outputs.map((o) => o.key) ?? [])) outputs.add(key);
  }
  return { inputs: [...inputs], outputs: [...outputs] };
}

/** Every row the filter selects, newest first, a page at a time. */
async function* pagesOf(
  deps: { results: ResultsStore },
  accountId: string,
  filter: ResultsFilter,
): AsyncGenerator<ResultRow[]> {
  let cursor: ResultsCursor | undefined;
  for (;;) {
    const page = await deps.results.list(accountId, filter, EXPORT_PAGE, cursor);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < EXPORT_PAGE) return;
    cursor = { createdAt: last.createdAt, id: last.id };
  }
}

async function* csvText(
  deps: { results: ResultsStore },
  accountId: string,
  filter: ResultsFilter,
  { inputs, outputs }: { inputs: string[]; outputs: string[] },
): AsyncGenerator<string> {
  // The byte order mark makes spreadsheets read the file as UTF-8.
  yield `\uFEFF${csvLine([
    ...FIXED_COLUMNS.map(([name]) => name),
    ...inputs.map((k) => `input.${k}`),
    ...outputs.map((k) => `output.${k}`),
    'prefill',
  ])}`;
  for await (const page of pagesOf(deps, accountId, filter)) {
    let text = '';
    for (const row of page) {
      const result = resultJson(row);
      text += csvLine([
        ...FIXED_COLUMNS.map(([, read]) => read(result)),
        ...inputs.map((k) => (Object.hasOwn(result.inputs, k) ? result.inputs[k] : undefined)),
        ...outputs.map((k) => (Object.hasOwn(result.outputs, k) ? result.outputs[k] : undefined)),
        Object.keys(result.prefill).length === 0 ? undefined : result.prefill,
      ]);
    }
    yield text;
  }
}

async function* jsonLines(
  deps: { results: ResultsStore },
  accountId: string,
  filter: ResultsFilter,
): AsyncGenerator<string> {
  for await (const page of pagesOf(deps, accountId, filter)) {
    let text = '';
    for (const row of page) text += `${JSON.stringify(resultJson(row))}\n`;
    yield text;
  }
}

/**
 * The export as a streamed answer: the next page is read only once the client took the
 * last. What can fail before the first byte (the query, the columns' read) fails as an
 * error answer; a failure later cuts the stream.
 */
export async function exportResults(
  deps: { results: ResultsStore; resolve: CalculatorResolver; now: () => Date },
  accountId: string,
  query: Static<typeof ExportQuery>,
): Promise<Response> {
  const filter = filterOf(query);
  const format = query.format ?? 'csv';
  const text =
    format === 'csv'
      ? csvText(deps, accountId, filter, await keyColumns(deps, accountId, await deps.results.keys(accountId, filter)))
      : jsonLines(deps, accountId, filter);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await text.next();
        if (next.done) controller.close();
        else controller.enqueue(encoder.encode(next.value));
      },
      async cancel() {
        await text.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
  const day = deps.now().toISOString().slice(0, 10);
  return new Response(body, {
    headers: {
      'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
      'content-disposition': `attachment; filename="results-${day}.${format}"`,
      'cache-control': 'no-store',
    },
  });
}
