/** Medians, rounding and the choice of the least disturbed measurements. */

/** A measurement during which other processes used more than this many cores is repeated. */
export const MAX_INTERFERENCE = Number(process.env.BENCH_MAX_INTERFERENCE ?? 0.2);

export function median(values: number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The q-quantile (0…1) by linear interpolation between the nearest ranks. */
export function quantile(values: number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return (sorted[low] as number) + ((sorted[high] as number) - (sorted[low] as number)) * (at - low);
}

/** Median of the per-index differences a[i] − b[i] (paired samples). */
export function pairedMedian(a: number[], b: number[]): number {
  return median(a.map((x, i) => x - (b[i] ?? Number.NaN)));
}

export const round1 = (n: number): number => Math.round(n * 10) / 10;
export const round2 = (n: number): number => Math.round(n * 100) / 100;
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;
export const round4 = (n: number): number => Math.round(n * 10000) / 10000;

/** Indexes (ascending) of the `n` items with the least interference (ties: earlier first). */
export function leastDisturbed(items: { interference: number }[], n: number): number[] {
  return items
    .map((item, index) => ({ index, interference: item.interference }))
    .sort((a, b) => a.interference - b.interference || a.index - b.index)
    .slice(0, n)
    .map((x) => x.index)
    .sort((a, b) => a - b);
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
