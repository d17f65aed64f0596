import { expect, test } from 'bun:test';
import { createReadiness, WRITE_PROBE_INTERVAL_MS } from '../../../src/modules/health/service.ts';

test('readiness reads on every call and probes a write at most every 5 s, reusing its last outcome in between', () => {
  let clock = 1_000;
  let writable = true;
  let readable = true;
  let writes = 0;
  const ready = createReadiness({
    read: () => {
      if (!readable) throw new Error('gone');
    },
    write: () => {
      writes += 1;
      if (!writable) throw new Error('SQLITE_FULL');
    },
    now: () => clock,
  });
  expect(ready()).toEqual({ ready: true });
  writable = false;
  clock += WRITE_PROBE_INTERVAL_MS - 1;
  expect(ready()).toEqual({ ready: true });
  expect(writes).toBe(1);
  clock += 1;
  expect(ready()).toMatchObject({ ready: false, reason: expect.stringContaining('cannot be written') });
  expect(writes).toBe(2);
  readable = false;
  expect(ready()).toMatchObject({ ready: false, reason: expect.stringContaining('cannot be read') });
  readable = true;
  writable = true;
  clock += WRITE_PROBE_INTERVAL_MS;
  expect(ready()).toEqual({ ready: true });
  expect(writes).toBe(3);
});
