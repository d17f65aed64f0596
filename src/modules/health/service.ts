/** A write probe runs at most this often: `/readyz` may be polled every second by many balancers. */
export const WRITE_PROBE_INTERVAL_MS = 5000;

export interface ReadinessDeps {
  /** Throws when the database cannot be read. */
  read(): void;
  /** Throws when the database cannot be written. */
  write(): void;
  now(): number;
}

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * Readiness: the database answers a read on every call, and a write probe at most every
 * `WRITE_PROBE_INTERVAL_MS` (its last outcome is reused in between).
 */
export function createReadiness(deps: ReadinessDeps) {
  let lastWrite: { at: number; ok: boolean } | null = null;
  return (): Readiness => {
    try {
      deps.read();
    } catch {
      return { ready: false, reason: 'The database cannot be read.' };
    }
    const now = deps.now();
    if (lastWrite === null || now - lastWrite.at >= WRITE_PROBE_INTERVAL_MS) {
      let ok = true;
      try {
        deps.write();
      } catch {
        ok = false;
      }
      lastWrite = { at: now, ok };
    }
    return lastWrite.ok
      ? { ready: true }
      : { ready: false, reason: 'The database cannot be written (disk full or read-only?).' };
  };
}
