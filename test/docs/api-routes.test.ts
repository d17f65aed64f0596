/**
 * docs/api.md's routes table lists every route the app serves, and nothing else: a route
 * added without its row, or a row left behind by a removed route, fails here.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testApp } from '../helpers/test-app.ts';

const API_DOC = join(import.meta.dir, '../../docs/api.md');

/** `METHOD /path` with path parameters spelled as the doc spells them: `{calcId}`. */
const key = (method: string, path: string) => `${method} ${path.replace(/:(\w+)/g, '{$1}')}`;

/**
 * The routes of the table under "## Routes": each row's first cell holds one or more
 * `` `METHOD /path` `` spans (`GET /healthz`, `GET /readyz` share one row).
 */
function documentedRoutes(markdown: string): string[] {
  const section = markdown.split(/^## Routes$/m)[1]?.split(/^## /m)[0] ?? '';
  const rows = section.split('\n').filter((line) => line.startsWith('|'));
  // The header row and the separator row name no route.
  const firstCells = rows.slice(2).map((row) => row.split('|')[1] ?? '');
  return firstCells.flatMap((cell) =>
    [...cell.matchAll(/`(GET|POST|PUT|PATCH|DELETE) (\/[^`\s]*)`/g)].map(([, method, path]) =>
      key(method as string, path as string),
    ),
  );
}

/** Every route the app registers, native widget routes included; preflights are a convention, not a route. */
function servedRoutes(): string[] {
  using app = testApp();
  return app.routeGroups
    .flatMap(({ routes }) => routes)
    .filter(({ method }) => method !== 'OPTIONS' && method !== 'HEAD')
    .map(({ method, path }) => key(method, path));
}

describe("docs/api.md's routes table", () => {
  const documented = documentedRoutes(readFileSync(API_DOC, 'utf8'));
  const served = servedRoutes();

  test('is found and lists each route once', () => {
    expect(documented.length).toBeGreaterThan(20);
    expect(new Set(documented).size).toBe(documented.length);
  });

  test('lists every route the app serves', () => {
    expect(served.filter((route) => !documented.includes(route))).toEqual([]);
  });

  test('lists no route the app does not serve', () => {
    expect(documented.filter((route) => !served.includes(route))).toEqual([]);
  });
});
