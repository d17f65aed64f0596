import { expect, test } from 'bun:test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedBundle } from '../../../src/bundle-cache.ts';
import { tempDir } from '../../helpers/temp-dir.ts';

/** A checkout with one widget source; `build` counts its runs and answers what it read. */
function checkout(path: string) {
  mkdirSync(join(path, 'widget', 'src'), { recursive: true });
  const write = (text: string) => writeFileSync(join(path, 'widget', 'src', 'index.ts'), text);
  write('one');
  const runs: string[] = [];
  const build = () => {
    const value = `built ${runs.length + 1}`;
    runs.push(value);
    return { value };
  };
  return { write, runs, build };
}

test('a bundle is built once for the same sources, and again as soon as any source changes', () => {
  using dir = tempDir();
  const { write, runs, build } = checkout(dir.path);
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 1' });
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 1' });
  expect(runs).toEqual(['built 1']);

  write('two');
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 2' });
  // A new file under a source folder counts too, and so does the lock file.
  writeFileSync(join(dir.path, 'widget', 'src', 'extra.ts'), '');
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 3' });
  writeFileSync(join(dir.path, 'package-lock.json'), '{}');
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 4' });
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 4' });
});

test('each bundle has its own entry: another name is built on its own', () => {
  using dir = tempDir();
  const { runs, build } = checkout(dir.path);
  cachedBundle('widget', build, dir.path);
  expect(cachedBundle('dashboard', build, dir.path)).toEqual({ value: 'built 2' });
  expect(cachedBundle('widget', build, dir.path)).toEqual({ value: 'built 1' });
  expect(runs).toHaveLength(2);
});
