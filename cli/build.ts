/**
 * Builds the one executable (CLI and server) with `bun build --compile`. Migrations and
 * the widget are inlined by macros at bundle time. `bun cli/build.ts` writes dist/calc;
 * tests and benchmarks call `compileExecutable` for their own copies.
 */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dir, '..');

/**
 * `entry` defaults to the product's (cli/bin.ts); benches compile their baselines the same
 * way, some from a copy of the tree (`root`).
 */
export function compileExecutable(
  outfile: string,
  entry = 'cli/bin.ts',
  root = ROOT,
): { ok: boolean; ms: number; output: string } {
  mkdirSync(dirname(outfile), { recursive: true });
  const started = performance.now();
  const proc = Bun.spawnSync(
    // --bytecode needs --format=esm with bin.ts's top-level await.
    [
      process.execPath,
      'build',
      '--compile',
      '--minify',
      '--bytecode',
      '--format=esm',
      '--sourcemap=none',
      entry,
      '--outfile',
      outfile,
    ],
    { cwd: root, stdout: 'pipe', stderr: 'pipe' },
  );
  return {
    ok: proc.exitCode === 0,
    ms: Math.round(performance.now() - started),
    output: proc.stdout.toString() + proc.stderr.toString(),
  };
}

if (import.meta.main) {
  const result = compileExecutable(join(ROOT, 'dist', 'calc'));
  process.stdout.write(result.output);
  if (!result.ok) {
    console.error('build failed');
    process.exit(1);
  }
  console.log(`built dist/calc in ${result.ms} ms`);
}
