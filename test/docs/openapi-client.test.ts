/**
 * A typed client generated from /openapi.json, as a consumer makes one: openapi-typescript
 * writes the types, openapi-fetch makes the calls. An owner's first hour written with it
 * (test/fixtures/openapi-client/first-hour.ts) compiles under `tsc --strict` without a
 * cast, typing the definition by its name in the document (`Definition`), and runs
 * against a real server.
 */
import { describe, expect, test } from 'bun:test';
import { copyFileSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS from 'openapi-typescript';
import { listeningApp } from '../helpers/listening-app.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const ROOT = join(import.meta.dir, '../..');
const FIRST_HOUR = join(ROOT, 'test/fixtures/openapi-client/first-hour.ts');

/** What would let a consumer's code compile where the types are wrong: a cast, `any`, a non-null `!`, a silenced error. */
function escapeHatches(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const patterns = [/\sas\s+[A-Za-z{[]/, /\bany\b/, /[\w)\]]!(?=[.[(\s;,])/, /<[A-Z]\w*>\s*[\w(]/];
  // A directive lives in a comment: looked for in the source as it is.
  const silenced = /@ts-(ignore|expect-error|nocheck)/.test(source) ? ['@ts- directive'] : [];
  return [...patterns.filter((pattern) => pattern.test(code)).map(String), ...silenced];
}

describe('a client generated from /openapi.json', () => {
  test("an owner's first hour compiles strictly without casts and runs against a real server", async () => {
    await using served = listeningApp();
    using dir = tempDir();
    const doc = await (await fetch(`${served.base}/openapi.json`)).json();
    writeFileSync(join(dir.path, 'api.ts'), await openapiTS(doc));
    copyFileSync(FIRST_HOUR, join(dir.path, 'first-hour.ts'));
    symlinkSync(join(ROOT, 'node_modules'), join(dir.path, 'node_modules'));
    writeFileSync(
      join(dir.path, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'ESNext',
          moduleResolution: 'bundler',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noUncheckedIndexedAccess: true,
          allowImportingTsExtensions: true,
          noEmit: true,
        },
        files: ['first-hour.ts'],
      }),
    );

    expect(escapeHatches(readFileSync(FIRST_HOUR, 'utf8'))).toEqual([]);
    // The self-check: each escape hatch is caught.
    for (const hatch of ['x as Foo', 'let y: any', 'data!.token', '// @ts-expect-error', '<Foo>bar'])
      expect(escapeHatches(hatch), hatch).not.toEqual([]);

    const tsc = Bun.spawnSync([join(ROOT, 'node_modules/.bin/tsc'), '-p', join(dir.path, 'tsconfig.json')], {
      stdout: 'pipe',
      stderr: 'pipe',
    });
    expect(`${tsc.stdout.toString()}${tsc.stderr.toString()}`).toBe('');
    expect(tsc.exitCode).toBe(0);

    const { firstHour } = await import(join(dir.path, 'first-hour.ts'));
    const result = await firstHour(served.base, 'first-hour@shop.example');
    expect(result).toEqual({
      plan: 'free',
      inputKinds: ['number', 'number', 'number', 'number'],
      used: 1,
      limit: expect.any(Number),
      loads: expect.any(Number),
      problemPaths: ['outputs'],
      status: 'published',
      version: 1,
    });
  }, 60_000);
});
