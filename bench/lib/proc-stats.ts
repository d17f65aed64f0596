/** Readings of /proc: memory and CPU time of a process, busy time of the machine. */
import { readdirSync, readFileSync } from 'node:fs';
import { MAX_INTERFERENCE, sleep } from './sampling.ts';

const CLOCK_TICKS = 100;

/** VmRSS and VmHWM (peak) of a live process, in MB. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

export function vmRssMb(pid: number): number {
  return memoryOf(pid).rssMb;
}

/** User + system CPU time of a live process (all its threads), in seconds; 0 when it is gone. */
export function cpuSecondsOf(pid: number): number {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
}

/** User and system (kernel) CPU time of a live process, in seconds; 0 when it is gone. */
export function cpuSplitOf(pid: number): { user: number; system: number } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(fields[11]) / CLOCK_TICKS, system: Number(fields[12]) / CLOCK_TICKS };
  } catch {
    return { user: 0, system: 0 };
  }
}

/**
 * CPU time of the whole machine spent in processes (user, nice, system) or stolen by the
 * hypervisor, in seconds. By default irq and softirq are left out: loopback TCP is
 * processed there and is not charged to any process, so counting it would report our own
 * traffic as other processes' load (at 60k req/s it is ~0.4 core). `countIrq` adds them
 * (the definition bench/server.ts has always used).
 */
export function machineBusySeconds(countIrq = false): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields;
  return (user + nice + system + steal + (countIrq ? irq + softirq : 0)) / CLOCK_TICKS;
}

/**
 * Waits (at most maxWaitMs) for a half second in which the machine is nearly idle, so a
 * measurement does not start in the middle of another process's work. Returns the wait.
 */
export async function waitForQuiet(maxWaitMs = 5000, threshold = MAX_INTERFERENCE, countIrq = true): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < maxWaitMs) {
    const busy0 = machineBusySeconds(countIrq);
    const t0 = performance.now();
    await sleep(500);
    const cores = (machineBusySeconds(countIrq) - busy0) / ((performance.now() - t0) / 1000);
    if (cores <= threshold) break;
  }
  return performance.now() - started;
}

/** A process and its direct children (e.g. a PostgreSQL postmaster and its backends). */
export function withChildren(pid: number): number[] {
  const pids = [pid];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}
