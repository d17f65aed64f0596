/**
 * The bundle macros' cache. A macro runs whenever Bun transpiles its importer: in every
 * `bun test` file, every `bun cli/bin.ts` and every build, and the widget's bundle alone
 * (Zopfli at 15 iterations) costs about a second of a core each time. Its output depends
 * only on the sources, so it is kept under a hash of all of them (and Bun's version) and
 * built again only when one changed (docs/decisions.md, "Bundles cached by their sources").
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dir, '..');
/** Everything a bundle is built from: the code it bundles, its build scripts, the locked dependencies. */
const INPUT_DIRS = ['src', 'widget', 'dashboard'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json', 'bunfig.toml'];

function sourcesHash(root: string): string {
  const hash = createHash('sha256').update(Bun.version);
  const files = INPUT_DIRS.flatMap((dir) =>
    existsSync(join(root, dir)) ? [...new Bun.Glob(`${dir}/**/*`).scanSync({ cwd: root, dot: true })] : [],
  );
  for (const file of [...files.sort(), ...INPUT_FILES.filter((file) => existsSync(join(root, file)))]) {
    hash.update(`\0${file}\0`).update(readFileSync(join(root, file)));
  }
  return hash.digest('hex').slice(0, 24);
}

/**
 * `build()`'s value (JSON), from the cache when the sources of the checkout at `root` are
 * the same as when it was kept.
 */
export function cachedBundle<T>(name: string, build: () => T, root = ROOT): T {
  const cacheDir = join(root, 'node_modules', '.cache', 'calc-bundles');
  const file = join(cacheDir, `${name}-${sourcesHash(root)}.json`);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as T;
  const value = build();
  try {
    mkdirSync(cacheDir, { recursive: true });
    for (const old of readdirSync(cacheDir))
      if (old.startsWith(`${name}-`)) rmSync(join(cacheDir, old), { force: true });
    // Processes transpiling at once each write their own file; the rename makes the last one win whole.
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, JSON.stringify(value));
    renameSync(partial, file);
  } catch {
    // A read-only checkout still builds, only without the cache.
  }
  return value;
}
