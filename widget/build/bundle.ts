/**
 * Bundles the embed script: widget/src/index.ts → one minified browser IIFE, written to
 * stdout. Run as a subprocess by the server's bundle macro (Bun.build cannot run inside
 * a macro) and by `bun widget/build/bundle.ts > widget.js` by hand.
 */
import { join } from 'node:path';
import { stripOwnerText } from './strip-owner-text.ts';

const root = join(import.meta.dir, '..', '..');
const calculatorsDir = join(root, 'src', 'calculators');

export async function bundleWidget(): Promise<string> {
  const result = await Bun.build({
    entrypoints: [join(root, 'widget', 'src', 'index.ts')],
    target: 'browser',
    format: 'iife',
    minify: true,
    sourcemap: 'none',
    plugins: [
      {
        name: 'strip-owner-text',
        setup(build) {
          build.onLoad({ filter: /[\\/]src[\\/]calculators[\\/][^\\/]+\.ts$/ }, async ({ path }) => {
            const source = await Bun.file(path).text();
            return { contents: path.startsWith(calculatorsDir) ? stripOwnerText(source) : source, loader: 'ts' };
          });
        },
      },
    ],
  });
  if (!result.success) throw new AggregateError(result.logs, 'widget bundle failed');
  const [output] = result.outputs;
  if (!output) throw new Error('widget bundle produced no output');
  return output.text();
}

if (import.meta.main) {
  process.stdout.write(await bundleWidget());
}
