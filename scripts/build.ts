/**
 * Builds the one executable `dist/calc` (CLI and server) with `bun build --compile`.
 * Migrations and the widget are inlined by macros at bundle time.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dir, '..');
mkdirSync(join(root, 'dist'), { recursive: true });
const started = performance.now();
const proc = Bun.spawnSync(
  [process.execPath, 'build', '--compile', '--minify', '--bytecode', '--format=esm', '--sourcemap=none', 'cli/bin.ts', '--outfile', 'dist/calc'],
  { cwd: root, stdout: 'inherit', stderr: 'inherit' },
);
if (proc.exitCode !== 0) {
  console.error('build failed');
  process.exit(proc.exitCode ?? 1);
}
console.log(`built dist/calc in ${Math.round(performance.now() - started)} ms`);
