import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { runCommand } from '../../helpers/process.ts';

// In its own process so the runner's heap does not blur the measurement; see the
// probe for why it fetches several times and keeps watching after each fetch.
test('a gzip bomb (256 MB of zeros, 255 KB on the wire) ends too_large with bounded memory', async () => {
  const { stdout, stderr, exitCode } = await runCommand(
    [process.execPath, join(import.meta.dir, 'fixtures', 'gzip-bomb-probe.ts')],
    [],
  );
  expect({ exitCode, stderr }).toEqual({ exitCode: 0, stderr: '' });
  const report = JSON.parse(stdout.trim()) as { outcomes: string[]; bombBytes: number; growthMb: number };
  expect(report.outcomes.length).toBeGreaterThan(0);
  expect(new Set(report.outcomes)).toEqual(new Set(['too_large']));
  expect(report.bombBytes).toBeLessThan(256 * 1024);
  expect(report.growthMb).toBeLessThan(50);
}, 20_000);
