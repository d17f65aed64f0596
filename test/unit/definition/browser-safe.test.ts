/**
 * The formula and definition modules go into the widget and the dashboard's builder: they
 * must bundle for the browser on their own, without TypeBox (schema.ts is for the server
 * and the CLI) and without anything that turns text into code, which the widget's strict
 * Content-Security-Policy forbids.
 */
import { expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp-dir.ts';

const SRC = join(import.meta.dir, '..', '..', '..', 'src');

test('compile, evaluate, the renderer helpers and the validator bundle for the browser, free of TypeBox and eval', async () => {
  using dir = tempDir();
  const entry = join(dir.path, 'entry.ts');
  const from = (path: string) => JSON.stringify(join(SRC, path));
  writeFileSync(
    entry,
    [
      `export { compile } from ${from('definition/compile.ts')};`,
      `export { evaluate } from ${from('definition/evaluate.ts')};`,
      `export { bandOf, displayedInputs, primaryOutput } from ${from('definition/view.ts')};`,
      `export { textIn } from ${from('definition/text.ts')};`,
      `export { validateDefinition } from ${from('definition/validate.ts')};`,
    ].join('\n'),
  );
  const built = await Bun.build({ entrypoints: [entry], target: 'browser', format: 'esm' });
  expect(built.success).toBe(true);
  const code = (await built.outputs[0]?.text()) ?? '';
  expect(code).toContain('function validateDefinition');
  // An unminified bundle names each module it holds in a comment line.
  const modules = (code.match(/^\/\/ \S+\.ts$/gm) ?? []).map((line) => line.slice(3).replace(/^.*?src\//, 'src/'));
  const allowed = /^src\/(formula\/[a-z-]+|definition\/(?!schema)[a-z-]+)\.ts$/;
  expect(modules.filter((module) => !allowed.test(module))).toEqual([]);
  expect(modules).toContain('src/formula/parser.ts');
  for (const forbidden of ['sinclair', 'new Function', 'eval(', 'node:']) expect(code).not.toContain(forbidden);
});
