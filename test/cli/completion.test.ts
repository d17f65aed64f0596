import { beforeAll, expect, test } from 'bun:test';
import { join } from 'node:path';
import { ensureCompiled, runCommand } from '../helpers/process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

let calc: string;
beforeAll(async () => {
  calc = await ensureCompiled();
}, 120_000);

/** Asks bash's completion function what it offers after `words`. */
async function complete(functions: string, words: string[]): Promise<string[]> {
  const line = words.join(' ');
  const script = `source '${functions}'; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; COMP_LINE='${line}'; COMP_POINT=${line.length}; _calc_autocomplete; printf '%s\\n' "\${COMPREPLY[@]}"`;
  const res = await runCommand(['bash', '-c', script], []);
  return [...new Set(res.stdout.split('\n').filter(Boolean))].sort();
}

test('the compiled executable builds bash completion that completes topics, commands and flags', async () => {
  using cache = tempDir();
  const env = { XDG_CACHE_HOME: cache.path };
  const setup = await runCommand([calc], ['autocomplete', 'bash'], { env });
  expect(setup.exitCode).toBe(0);
  expect(setup.stdout).toContain('calc autocomplete script bash');
  const script = await runCommand([calc], ['autocomplete', 'script', 'bash'], { env });
  expect(script.stdout).toContain('CALC_AC_BASH_SETUP_PATH');
  const functions = join(cache.path, 'calc', 'autocomplete', 'functions', 'bash', 'calc.bash');
  expect(await complete(functions, ['calc', 'dom'])).toEqual(['domains']);
  expect(await complete(functions, ['calc', 'domains', 'a'])).toEqual(['add', 'approve']);
  expect(await complete(functions, ['calc', 'config', 'set-webhook', '--he'])).toEqual(['--header', '--header-stdin']);
}, 30_000);
