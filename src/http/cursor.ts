import { invalidRequest } from '../errors.ts';

/**
 * Lists read a page at a time (`cursor`, `nextCursor`; docs/api.md): a cursor is the last row's sort
 * key, opaque to clients (JSON, base64url), and a page is read with one row more than asked,
 * which says whether another follows without a count.
 */
export const encodeCursor = (key: readonly (string | number)[]): string =>
  Buffer.from(JSON.stringify(key)).toString('base64url');

/** The sort key in a cursor, as `read` takes it from its parts (undefined: not one), or 400. */
export function decodeCursor<T>(text: string, read: (parts: unknown[]) => T | undefined): T {
  try {
    const parts: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    const key = Array.isArray(parts) ? read(parts) : undefined;
    if (key !== undefined) return key;
  } catch {
    // refused below
  }
  throw invalidRequest('cursor: not a cursor this server gave out; start again without one.');
}

/** `rows` read with `limit + 1`: the page, and the cursor of the next one (null at the end). */
export function pageOf<R>(rows: R[], limit: number, cursorOf: (last: R) => string) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? cursorOf(last) : null };
}
