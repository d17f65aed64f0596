import { join } from 'node:path';
import type { WidgetBundle } from '../../../widget/build/bundle.ts';
import { cachedBundle } from '../../bundle-cache.ts';

export type { BuiltFile } from '../../../widget/build/compress.ts';

/**
 * Runs at bundle time (imported `with { type: 'macro' }`): builds widget/src into a
 * minified IIFE and the language packs, precompressed, and inlines them, so `bun test`,
 * `bun run` and the compiled executable all serve the same files without reading any
 * at run time. Bun.build cannot run inside a macro, so the build runs as a subprocess of
 * the same Bun, and only when a source changed (`cachedBundle`).
 */
export function bundleWidgetScript(): WidgetBundle {
  return cachedBundle('widget', buildWidgetScript);
}

function buildWidgetScript(): WidgetBundle {
  const script = join(import.meta.dir, '..', '..', '..', 'widget', 'build', 'bundle.ts');
  const proc = Bun.spawnSync([process.execPath, script, '--json'], { stdout: 'pipe', stderr: 'pipe' });
  if (proc.exitCode !== 0) {
    throw new Error(`widget bundle failed (exit ${proc.exitCode}): ${proc.stderr.toString()}`);
  }
  const bundle = JSON.parse(proc.stdout.toString()) as WidgetBundle;
  if (!bundle.script.text) throw new Error('widget bundle is empty');
  return bundle;
}
