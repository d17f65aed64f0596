import { describe, expect, test } from 'bun:test';
import { AppError } from '../../../src/errors.ts';
import { createPasswords } from '../../../src/security/passwords.ts';

describe('bounded password work', () => {
  test('at most `concurrency` at once; the queue waits its turn; past it 503 busy with Retry-After', async () => {
    const passwords = createPasswords({ concurrency: 1, queue: 1 });
    const first = passwords.enter();
    const second = passwords.enter();
    let refused: unknown;
    try {
      passwords.enter();
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect([(refused as AppError).status, (refused as AppError).code]).toEqual([503, 'busy']);
    expect((refused as AppError).headers).toEqual({ 'Retry-After': '1' });

    await first.argon2();
    let secondRuns = false;
    const waiting = second.argon2().then(() => {
      secondRuns = true;
    });
    // The one core is the first's until it is done.
    await Promise.resolve();
    expect(secondRuns).toBe(false);
    first.done();
    await waiting;
    expect(secondRuns).toBe(true);
    // A place is free again (the second holds the core, the queue is empty).
    const third = passwords.enter();
    second.done();
    third.done();
  });

  test('a place left before it reached a core frees its place; done twice counts once', async () => {
    const passwords = createPasswords({ concurrency: 1, queue: 0 });
    expect(() => passwords.ensureRoom()).not.toThrow();
    const place = passwords.enter();
    // A look before work that is dear to undo: busy, and nothing taken.
    expect(() => passwords.ensureRoom()).toThrow('busy');
    expect(() => passwords.enter()).toThrow('busy');
    place.done();
    place.done();
    const next = passwords.enter();
    expect(() => passwords.enter()).toThrow('busy');
    next.done();
  });

  test('run hashes and verifies with argon2id', async () => {
    const passwords = createPasswords({ concurrency: 2, queue: 2 });
    const hash = await passwords.run((argon2) => argon2.hash('correct horse battery'));
    expect(hash).toStartWith('$argon2id$');
    expect(await passwords.run((argon2) => argon2.verify('correct horse battery', hash))).toBe(true);
    expect(await passwords.run((argon2) => argon2.verify('wrong horse battery', hash))).toBe(false);
  });
});
