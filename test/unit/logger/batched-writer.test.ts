import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { batchedWriter, createLogger } from '../../../src/logger.ts';
import { ROOT } from '../../helpers/process.ts';

describe('batched log writer', () => {
  test('lines written together arrive as one chunk, in order, after the delay', async () => {
    const chunks: string[] = [];
    const write = batchedWriter((chunk) => chunks.push(chunk), { delayMs: 30 });
    write('a\n');
    write('b\n');
    write('c\n');
    expect(chunks).toEqual([]);
    await Bun.sleep(80);
    expect(chunks).toEqual(['a\nb\nc\n']);
    write('d\n');
    await Bun.sleep(80);
    expect(chunks).toEqual(['a\nb\nc\n', 'd\n']);
  });

  test('a batch past maxChars is written at once', () => {
    const chunks: string[] = [];
    const write = batchedWriter((chunk) => chunks.push(chunk), { delayMs: 10_000, maxChars: 10 });
    write('12345\n');
    expect(chunks).toEqual([]);
    write('67890\n');
    expect(chunks).toEqual(['12345\n67890\n']);
  });

  test('a busy millisecond shares one time string; lines stay valid JSON with the time of their own millisecond', () => {
    const lines: string[] = [];
    let now = Date.parse('2026-11-01T10:00:00.000Z');
    const logger = createLogger((line) => lines.push(line), () => now);
    logger.info('one');
    logger.info('two', { n: 2 });
    now = Date.parse('2026-11-01T10:00:00.001Z');
    logger.warn('three');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { time: '2026-11-01T10:00:00.000Z', level: 'info', msg: 'one' },
      { time: '2026-11-01T10:00:00.000Z', level: 'info', msg: 'two', n: 2 },
      { time: '2026-11-01T10:00:00.001Z', level: 'warn', msg: 'three' },
    ]);
  });

  // What is pending when the process ends must reach stderr: after a natural end, an
  // explicit exit and an uncaught error.
  for (const ending of ['end', 'exit', 'throw'] as const) {
    test(`lines pending at process ${ending} are written`, async () => {
      const script = [
        `import { createLogger } from ${JSON.stringify(join(ROOT, 'src', 'logger.ts'))};`,
        'const logger = createLogger();',
        'for (let i = 0; i < 500; i++) logger.info("line", { i });',
        ending === 'exit' ? 'process.exit(3);' : ending === 'throw' ? 'throw new Error("boom");' : '',
      ].join('\n');
      const proc = Bun.spawnSync([process.execPath, '-e', script], { stderr: 'pipe', stdout: 'pipe' });
      const lines = proc.stderr.toString().split('\n').filter((line) => line.startsWith('{'));
      expect(lines).toHaveLength(500);
      expect(JSON.parse(lines[499] as string)).toMatchObject({ msg: 'line', i: 499 });
      expect(proc.exitCode).toBe(ending === 'end' ? 0 : ending === 'exit' ? 3 : 1);
    });
  }
});
