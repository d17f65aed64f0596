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
    const logger = createLogger(
      (line) => lines.push(line),
      () => now,
    );
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

  test('request lines are one JSON object each, with the fields they are given and a path that needs escaping', () => {
    const lines: string[] = [];
    const logger = createLogger(
      (line) => lines.push(line),
      () => Date.parse('2026-11-01T10:00:00.000Z'),
    );
    const widget = logger.requestLines('POST', '/v1/widget/load');
    widget('3f9c0a5e7b21-1k2', 200, 0.12);
    widget('3f9c0a5e7b21-1k3', 429, 1.5);
    logger.requestLines('GET', '/v1/domains/"quoted"\\\n')(undefined, 404, undefined);
    expect(lines.every((line) => line.endsWith('}\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      {
        time: '2026-11-01T10:00:00.000Z',
        level: 'info',
        msg: 'request',
        requestId: '3f9c0a5e7b21-1k2',
        method: 'POST',
        path: '/v1/widget/load',
        status: 200,
        ms: 0.12,
      },
      {
        time: '2026-11-01T10:00:00.000Z',
        level: 'info',
        msg: 'request',
        requestId: '3f9c0a5e7b21-1k3',
        method: 'POST',
        path: '/v1/widget/load',
        status: 429,
        ms: 1.5,
      },
      {
        time: '2026-11-01T10:00:00.000Z',
        level: 'info',
        msg: 'request',
        method: 'GET',
        path: '/v1/domains/"quoted"\\\n',
        status: 404,
      },
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
      const lines = proc.stderr
        .toString()
        .split('\n')
        .filter((line) => line.startsWith('{'));
      expect(lines).toHaveLength(500);
      expect(JSON.parse(lines[499] as string)).toMatchObject({ msg: 'line', i: 499 });
      expect(proc.exitCode).toBe(ending === 'end' ? 0 : ending === 'exit' ? 3 : 1);
    });
  }
});
