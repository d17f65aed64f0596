/**
 * The layout rules of CONTRIBUTING.md ("Modules and their faces"), read from the imports
 * themselves: shared layers never import a feature module, a module is entered only
 * through its face (`index.ts`), and modules depend on each other one way only.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT } from '../../helpers/process.ts';

/** Where the rules apply: the server, the CLI, and the two browser apps that import server code. */
const SOURCES = ['src', 'cli', 'dashboard/src', 'widget/src'];

/** The files that put modules together: they import modules (through their faces) and are imported by none. */
const COMPOSITION = new Set(['src/app.ts', 'src/main.ts', 'src/api-bodies.ts']);

// Static, re-exported, side-effect and dynamic imports, type-only ones included (a type
// is a dependency too). Anchored at a line's start, so comments and strings do not count.
const IMPORT =
  /^\s*(?:import|export)\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?(?:\{[^}]*\}|\*(?:\s+as\s+[\w$]+)?|[\w$]+)\s+from\s*'([^']+)'|^\s*import\s*'([^']+)'|\bimport\(\s*'([^']+)'\s*\)/gm;

interface Import {
  from: string;
  to: string;
}

/** Every relative import of every TypeScript file under SOURCES, as repository paths. */
function readImports(): Import[] {
  const imports: Import[] = [];
  for (const source of SOURCES)
    for (const file of new Bun.Glob(`${source}/**/*.{ts,tsx}`).scanSync(ROOT)) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      for (const match of text.matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2] ?? match[3] ?? '';
        if (specifier.startsWith('.'))
          imports.push({ from: file, to: relative(ROOT, join(dirname(join(ROOT, file)), specifier)) });
      }
    }
  return imports;
}

/** `accounts` for any file of src/modules/accounts/, else null. */
const moduleOf = (path: string): string | null => /^src\/modules\/([^/]+)\//.exec(path)?.[1] ?? null;
const isFace = (path: string): boolean => /^src\/modules\/[^/]+\/index\.ts$/.test(path);
const isSharedLayer = (path: string): boolean =>
  moduleOf(path) === null && !COMPOSITION.has(path) && !path.startsWith('cli/commands/');

const imports = readImports();
const show = (list: Import[]) => list.map(({ from, to }) => `${from} -> ${to}`);

describe('layers', () => {
  test('the imports are read: known ones of a shared layer, a module and a command are found', () => {
    const found = new Set(show(imports));
    expect(found).toContain('src/db/backend.ts -> src/limits/login-limiter.ts');
    expect(found).toContain('src/modules/widget/service.ts -> src/modules/domains/index.ts');
    expect(found).toContain('src/modules/widget/service.ts -> src/domains/origin.ts');
    expect(found).toContain('cli/commands/admin/accounts/create.ts -> src/modules/accounts/index.ts');
    expect(found).toContain('src/modules/dashboard/index.ts -> src/modules/dashboard/bundle.macro.ts');
  });

  test('no shared layer (db, http, limits, usage, webhook, security, cli/lib, …) imports a feature module', () => {
    expect(show(imports.filter(({ from, to }) => isSharedLayer(from) && moduleOf(to) !== null))).toEqual([]);
  });

  test('a module is entered only through its face, index.ts', () => {
    const intoPrivate = imports.filter(
      ({ from, to }) => moduleOf(to) !== null && moduleOf(to) !== moduleOf(from) && !isFace(to),
    );
    expect(show(intoPrivate)).toEqual([]);
  });

  test('modules depend on each other one way only (no cycle between modules)', () => {
    const uses = new Map<string, Set<string>>();
    for (const { from, to } of imports) {
      const [a, b] = [moduleOf(from), moduleOf(to)];
      if (a && b && a !== b) uses.set(a, (uses.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const visit = (name: string, path: string[]) => {
      if (path.includes(name)) {
        cycles.push([...path.slice(path.indexOf(name)), name].join(' -> '));
        return;
      }
      for (const next of uses.get(name) ?? []) visit(next, [...path, name]);
    };
    for (const name of uses.keys()) visit(name, []);
    expect(cycles).toEqual([]);
  });

  test('nothing imports the composition files but the entry points above them', () => {
    const allowed = new Set(['src/main.ts', 'cli/commands/serve.ts']);
    const wrong = imports.filter(
      ({ from, to }) => COMPOSITION.has(to) && to !== 'src/api-bodies.ts' && !allowed.has(from) && from !== to,
    );
    expect(show(wrong)).toEqual([]);
  });
});
