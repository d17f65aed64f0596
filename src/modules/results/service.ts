import type { Static } from 'elysia';
import type { ResultRow, ResultsCursor, ResultsFilter, ResultsStore } from '../../db/results-store.ts';
import { normaliseOrigin } from '../../domains/origin.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { DAY_MS } from '../../usage/counter.ts';
import type { ExportQuery, ResultJson, ResultsQuery } from './model.ts';

export type ResultJsonBody = Static<typeof ResultJson>;

const parsed = <T>(json: string | null, empty: T): T => (json === null ? empty : (JSON.parse(json) as T));

/** A stored row as the API answers it and the `result.submitted` event carries it. */
export function resultJson(row: ResultRow): ResultJsonBody {
  const contact: ResultJsonBody['contact'] = {};
  if (row.contactEmail !== null) contact.email = row.contactEmail;
  if (row.contactName !== null) contact.name = row.contactName;
  return {
    id: row.id,
    calcId: row.calcId,
    domain: row.domain,
    createdAt: row.createdAt,
    units: row.units as ResultJsonBody['units'],
    inputs: JSON.parse(row.inputs),
    outputs: JSON.parse(row.outputs),
    contact,
    visitor: row.visitor,
    page: row.page,
    utm: parsed(row.utm, {}),
    prefill: parsed(row.prefill, {}),
    consent: parsed(row.consent, null),
  };
}

/** A day's number since the epoch, or null when `day` is not a real date. */
function dayNumber(day: string): number | null {
  const ms = Date.parse(`${day}T00:00:00.000Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== day) return null;
  return ms / DAY_MS;
}

const startOf = (n: number) => new Date(n * DAY_MS).toISOString();

/** The store's filter for a query: real dates (`from` not after `to`), a well-formed origin. */
export function filterOf(query: Omit<Static<typeof ExportQuery>, 'format'>): ResultsFilter {
  const filter: ResultsFilter = {};
  const from = query.from === undefined ? undefined : dayNumber(query.from);
  const to = query.to === undefined ? undefined : dayNumber(query.to);
  if (from === null) throw invalidRequest(`from must be a real date as YYYY-MM-DD; ${query.from} is not one.`);
  if (to === null) throw invalidRequest(`to must be a real date as YYYY-MM-DD; ${query.to} is not one.`);
  if (from !== undefined && to !== undefined && from > to)
    throw invalidRequest(`from (${query.from}) must not be after to (${query.to}).`);
  if (from !== undefined) filter.from = startOf(from);
  if (to !== undefined) filter.before = startOf(to + 1);
  if (query.calcId !== undefined) filter.calcId = query.calcId;
  if (query.domain !== undefined) {
    try {
      filter.domain = normaliseOrigin(query.domain).origin;
    } catch {
      throw invalidRequest(`domain must be an origin such as https://shop.example; ${query.domain} is not one.`);
    }
  }
  if (query.email !== undefined) filter.email = query.email.trim();
  if (query.visitor !== undefined) filter.visitor = query.visitor;
  return filter;
}

/** Cursors are opaque to clients: the last row's time and id, base64url. */
function encodeCursor(row: ResultsCursor): string {
  return Buffer.from(`${row.createdAt}|${row.id}`).toString('base64url');
}

function decodeCursor(cursor: string): ResultsCursor {
  const [createdAt, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (createdAt && id && rest.length === 0 && !Number.isNaN(Date.parse(createdAt))) return { createdAt, id };
  throw invalidRequest('cursor: not a cursor this server gave out; start again without one.');
}

/** A page of the account's results, newest first. */
export async function listResults(
  deps: { results: ResultsStore },
  accountId: string,
  query: Static<typeof ResultsQuery>,
): Promise<{ results: ResultJsonBody[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
  // One more than asked: whether a next page exists, without a count.
  const rows = await deps.results.list(accountId, filterOf(query), limit + 1, cursor);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { results: page.map(resultJson), nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

const notFound = (id: string) => new AppError('result_not_found', `There is no result ${id} of this account.`);

export async function readResult(
  deps: { results: ResultsStore },
  accountId: string,
  id: string,
): Promise<{ result: ResultJsonBody }> {
  const row = await deps.results.find(accountId, id);
  if (!row) throw notFound(id);
  return { result: resultJson(row) };
}

/** Deletes a result with its queued event and that event's delivery log. */
export async function deleteResult(
  deps: { results: ResultsStore },
  accountId: string,
  id: string,
): Promise<{ id: string; deleted: true }> {
  if (!(await deps.results.remove(accountId, id))) throw notFound(id);
  return { id, deleted: true };
}
