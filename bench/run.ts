/**
 * `npm run bench`: runs every bench module that exists, in a fixed order, prints each
 * one's table and writes its JSON (each module writes bench/results/<name>.json).
 *
 * A bench module is bench/<name>.ts exporting `async function run()` that returns
 * `{ bench, rows, … }` (see bench/lib/report.ts). Benchmarks are not tests: a missed
 * target is reported and the exit code stays 0; a module that crashes makes it 1.
 *
 *   bun bench/run.ts              every module
 *   bun bench/run.ts server cli   only these
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { printTable, type Row } from './lib/report.ts';

const MODULES = [
  'server',
  'widget',
  'cli',
  'webhook',
  'usage',
  'dashboard',
  'visitor',
  'limits',
  'caps',
  'postgres',
  'formula',
  'delivery',
  'results',
  'funnel',
  'custom-load',
] as const;

const wanted = process.argv.slice(2);
const unknown = wanted.filter((name) => !(MODULES as readonly string[]).includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench module(s): ${unknown.join(', ')}; known: ${MODULES.join(', ')}`);
  process.exit(2);
}

const started = performance.now();
const summary: { name: string; status: 'ok' | 'crashed' | 'missing'; seconds: number; failed: number }[] = [];

for (const name of MODULES) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  const file = join(import.meta.dir, `${name}.ts`);
  if (!existsSync(file)) {
    summary.push({ name, status: 'missing', seconds: 0, failed: 0 });
    continue;
  }
  const t0 = performance.now();
  try {
    const mod = (await import(file)) as { run?: () => Promise<unknown> };
    if (typeof mod.run !== 'function') throw new Error(`bench/${name}.ts does not export run()`);
    const results = await mod.run();
    const rows = (results as { rows?: Row[] } | undefined)?.rows;
    if (Array.isArray(rows)) printTable({ bench: (results as { bench?: string }).bench ?? name, rows });
    else console.log(`\n== ${name} ==\n${JSON.stringify(results, null, 2)}`);
    const failed = Array.isArray(rows) ? rows.filter((row) => row.pass === false).length : 0;
    summary.push({ name, status: 'ok', seconds: (performance.now() - t0) / 1000, failed });
  } catch (error) {
    console.error(
      `\n== ${name} == CRASHED\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
    summary.push({ name, status: 'crashed', seconds: (performance.now() - t0) / 1000, failed: 0 });
  }
}

console.log('\n== summary ==');
for (const s of summary) {
  const detail =
    s.status === 'ok'
      ? `${s.seconds.toFixed(0)} s, ${s.failed === 0 ? 'all targets met' : `${s.failed} target(s) missed`}`
      : s.status === 'missing'
        ? 'not present, skipped'
        : `crashed after ${s.seconds.toFixed(0)} s`;
  console.log(`${s.name.padEnd(8)} ${s.status.padEnd(8)} ${detail}`);
}
console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s; results in bench/results/`);
process.exit(summary.some((s) => s.status === 'crashed') ? 1 : 0);
