/**
 * Bundles the dashboard: dashboard/src/main.tsx (with its CSS) → minified browser files
 * with content hashes in their names, written to stdout as JSON. Run as a subprocess by
 * the server's bundle macro (Bun.build cannot run inside a macro).
 */
import { join } from 'node:path';
import { packLanguages } from '../../widget/build/packs.ts';

const root = join(import.meta.dir, '..', '..');

/** One built file: its hashed name and its text. */
export interface BuiltAsset {
  name: string;
  type: string;
  /** `entry-point` files are linked from the page; `chunk`s are imported on demand. */
  kind: string;
  text: string;
}

export async function bundleDashboard(): Promise<BuiltAsset[]> {
  const result = await Bun.build({
    entrypoints: [join(root, 'dashboard', 'src', 'main.tsx')],
    target: 'browser',
    format: 'esm',
    // The chart library loads only on pages with a chart, not before the sign-in form.
    splitting: true,
    minify: true,
    sourcemap: 'none',
    naming: { entry: '[name]-[hash].[ext]', asset: '[name]-[hash].[ext]', chunk: '[name]-[hash].[ext]' },
    // The snippet builder offers a locale for each language the widget has a pack for.
    define: { 'process.env.NODE_ENV': '"production"', CALC_PACK_LANGUAGES: JSON.stringify(packLanguages()) },
  });
  if (!result.success) throw new AggregateError(result.logs, 'dashboard bundle failed');
  const assets: BuiltAsset[] = [];
  for (const output of result.outputs) {
    const name = output.path.split(/[\\/]/).pop() ?? output.path;
    assets.push({ name, type: output.type, kind: output.kind, text: await output.text() });
  }
  return assets;
}

if (import.meta.main) {
  process.stdout.write(JSON.stringify(await bundleDashboard()));
}
