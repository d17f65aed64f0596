import type { Static } from 'elysia';
import type { ResultRow, ResultsCursor, ResultsFilter, ResultsStore } from '../../db/results-store.ts';
import { normaliseOrigin } from '../../domains/origin.ts';
import { AppError, invalidRequest } from '../../errors.ts';
import { decodeCursor, encodeCursor, pageOf } from '../../http/cursor.ts';
import { checkOrder, realDay, startOfDay } from '../../http/days.ts';
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

/** The store's filter for a query: real dates (`from` not after `to`), a well-formed origin. */
export function filterOf(query: Omit<Static<typeof ExportQuery>, 'format'>): ResultsFilter {
  const filter: ResultsFilter = {};
  const from = query.from === undefined ? undefined : realDay('from', query.from);
  const to = query.to === undefined ? undefined : realDay('to', query.to);
  if (query.from !== undefined && from !== undefined && query.to !== undefined && to !== undefined)
    checkOrder({ day: query.from, n: from }, { day: query.to, n: to });
  if (from !== undefined) filter.from = startOfDay(from);
  if (to !== undefined) filter.before = startOfDay(to + 1);
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

/** The last row's time and id. */
const cursorOf = (row: ResultsCursor): string => encodeCursor([row.createdAt, row.id]);

const readCursor = ([createdAt, id, ...rest]: unknown[]): ResultsCursor | undefined =>
  typeof createdAt === 'string' && typeof id === 'string' && rest.length === 0 && !Number.isNaN(Date.parse(createdAt))
    ? { createdAt, id }
    : undefined;

/** A page of the account's results, newest first. */
export async function listResults(
  deps: { results: ResultsStore },
  accountId: string,
  query: Static<typeof ResultsQuery>,
): Promise<{ results: ResultJsonBody[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor, readCursor);
  const rows = await deps.results.list(accountId, filterOf(query), limit + 1, cursor);
  const { page, nextCursor } = pageOf(rows, limit, cursorOf);
  return { results: page.map(resultJson), nextCursor };
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
