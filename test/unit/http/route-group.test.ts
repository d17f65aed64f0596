import { describe, expect, test } from 'bun:test';
import { type GroupConcern, runConcerns } from '../../../src/http/route-group.ts';

const request = new Request('http://calc.test/x');

describe('per-group concerns', () => {
  test('run in order; synchronous ones answer without a promise', () => {
    const seen: string[] = [];
    const concern = (name: string): GroupConcern => ({ name, before: () => void seen.push(name) });
    expect(runConcerns([concern('a'), concern('b')], request, {})).toBeUndefined();
    expect(seen).toEqual(['a', 'b']);
  });

  test('a promise in the middle is awaited before the rest run', async () => {
    const seen: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const pending = runConcerns(
      [
        { name: 'a', before: () => gate.then(() => void seen.push('a')) },
        { name: 'b', before: () => void seen.push('b') },
      ],
      request,
      {},
    );
    expect(pending).toBeInstanceOf(Promise);
    expect(seen).toEqual([]);
    release();
    await pending;
    expect(seen).toEqual(['a', 'b']);
  });

  test('a refusal stops the chain', () => {
    const seen: string[] = [];
    expect(() =>
      runConcerns(
        [
          {
            name: 'limit',
            before: () => {
              throw new Error('refused');
            },
          },
          { name: 'after', before: () => void seen.push('after') },
        ],
        request,
        {},
      ),
    ).toThrow('refused');
    expect(seen).toEqual([]);
  });
});
