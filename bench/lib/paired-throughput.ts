/**
 * Throughput of two servers loaded at once on their shared core: the kernel splits the
 * core between them, so the req/s ratio is the ratio of their CPU cost per request under
 * the very same conditions (docs/performance.md).
 */
import { join } from 'node:path';
import { copyDataDir } from './data-dir.ts';
import { pinned, SERVER_CORE, startListening, type Started } from './processes.ts';
import { waitForQuiet } from './proc-stats.ts';
import { progress, type Row } from './report.ts';
import { median, quantile, round3 } from './sampling.ts';
import { wrk } from './wrk.ts';

/** A fresh process's first seconds under load (JIT tiers, first connections): never measured. */
const FIRST_CONTACT_S = 2;

interface PairedSide {
  /** Its name in progress lines ("off", "per-day"). */
  label: string;
  /** The command line that serves `dataDir` on a free port. */
  command: (dataDir: string) => string[];
  /** The wrk script this side is loaded with, when not the pair's (another calculator, say). */
  script?: string;
}

interface PairedOptions {
  /** The bench's name, for progress lines and folder names. */
  bench: string;
  work: string;
  /** The data directory both sides start from (a fresh copy each round). */
  baseDir: string;
  /** The wrk script both sides are loaded with (unless a side names its own). */
  script: string;
  rounds: number;
  sharedRuns: number;
  durationS: number;
  before: PairedSide;
  after: PairedSide;
}

export interface PairedThroughput {
  /** The sides' labels: [before, after]. */
  sides: [string, string];
  /** after / before, one per run. */
  ratios: number[];
  /** Each side's req/s, one per run, by label. */
  rps: Record<string, number[]>;
}

/**
 * `rounds` fresh process pairs (which starts first alternates), each warmed once, then
 * measured `sharedRuns` times with both loaded at once on POST /v1/widget/load.
 */
export async function pairedThroughput(options: PairedOptions): Promise<PairedThroughput> {
  const { bench, work, rounds, sharedRuns, durationS, script } = options;
  const sides = { before: options.before, after: options.after };
  const rps = { before: [] as number[], after: [] as number[] };
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    const order = round % 2 === 1 ? (['before', 'after'] as const) : (['after', 'before'] as const);
    const servers: Partial<Record<'before' | 'after', Started>> = {};
    try {
      for (const side of order) {
        const dir = join(work, `throughput-${side}-${round}`);
        copyDataDir(options.baseDir, dir);
        servers[side] = await startListening(pinned(SERVER_CORE, sides[side].command(dir)));
      }
      const url = (side: 'before' | 'after') => `${servers[side]?.url}/v1/widget/load`;
      const scriptOf = (side: 'before' | 'after') => sides[side].script ?? script;
      for (const side of order) await wrk(url(side), scriptOf(side), FIRST_CONTACT_S);
      for (let i = 0; i < sharedRuns; i++) {
        await waitForQuiet();
        const [before, after] = await Promise.all([
          wrk(url('before'), scriptOf('before'), durationS),
          wrk(url('after'), scriptOf('after'), durationS),
        ]);
        if (before.non2xx > 0 || after.non2xx > 0) {
          throw new Error(
            `non-2xx answers: ${sides.before.label} ${before.non2xx}, ${sides.after.label} ${after.non2xx}`,
          );
        }
        const ratio = after.requestsPerSec / before.requestsPerSec;
        ratios.push(ratio);
        rps.before.push(before.requestsPerSec);
        rps.after.push(after.requestsPerSec);
        progress(
          `${bench}: round ${round}.${i + 1}, both at once: ${sides.before.label} ${Math.round(before.requestsPerSec)} vs ${sides.after.label} ${Math.round(after.requestsPerSec)} req/s (${ratio.toFixed(3)}×)`,
        );
      }
    } finally {
      for (const server of Object.values(servers)) await server.stop();
    }
  }
  return {
    sides: [sides.before.label, sides.after.label],
    ratios,
    rps: { [sides.before.label]: rps.before, [sides.after.label]: rps.after },
  };
}

/**
 * The comparison's result row: the median ratio against `target`, with `setting` (how the
 * pair was run) and how the runs spread in its note.
 */
export function ratioRow(metric: string, load: PairedThroughput, rounds: number, target: number, setting: string): Row {
  const { ratios, rps, sides } = load;
  const ratio = median(ratios);
  const [before, after] = sides.map((label) => Math.round(median(rps[label] ?? [])));
  return {
    metric,
    value: round3(ratio),
    unit: '×',
    target: `≥ ${target}`,
    pass: ratio >= target,
    note: `${setting}: median of ${ratios.length} runs from ${rounds} fresh process pairs (middle half ${quantile(ratios, 0.25).toFixed(3)}–${quantile(ratios, 0.75).toFixed(3)}; range ${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}); each side's median ${after} vs ${before} req/s while sharing the core`,
  };
}
