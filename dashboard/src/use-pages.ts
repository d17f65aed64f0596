import { useState } from 'preact/hooks';
import { api } from './api.ts';
import { type Loaded, useApi } from './use-api.ts';

/** One page of a list the API answers a page at a time. */
interface Page {
  nextCursor: string | null;
}

export interface Pages<Body, Row> {
  /** The first page (its error, its reload). */
  first: Loaded<Body>;
  /** The first page's rows, then every older page asked for. */
  rows: Row[];
  /** The cursor of the next older page, or null at the end (undefined while loading). */
  next: string | null | undefined;
  /** Asks for the next older page; throws what the API answers. */
  more: () => Promise<void>;
  /** Back to the first page, asked for again. */
  restart: () => void;
}

/**
 * A list read a page at a time by cursor (`?cursor=` and `nextCursor`): the first page of
 * `path` when the component shows, older pages on demand. Older pages belong to the path
 * they were read under: a new path (other filters) starts from its first page.
 */
export function usePages<Body extends Page, Row>(path: string, rowsOf: (body: Body) => Row[]): Pages<Body, Row> {
  const first = useApi<Body>(path);
  const [older, setOlder] = useState<{ path: string; rows: Row[]; cursor: string | null } | null>(null);
  const read = older?.path === path ? older : null;
  const next = read ? read.cursor : first.data?.nextCursor;
  return {
    first,
    rows: [...(first.data ? rowsOf(first.data) : []), ...(read?.rows ?? [])],
    next,
    more: async () => {
      if (!next) return;
      const page = await api<Body>('GET', `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(next)}`);
      setOlder({ path, rows: [...(read?.rows ?? []), ...rowsOf(page)], cursor: page.nextCursor });
    },
    restart: () => {
      setOlder(null);
      first.reload();
    },
  };
}
