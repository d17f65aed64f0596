import { dlopen, FFIType, read } from 'bun:ffi';
import { closeSync, ftruncateSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirError } from './errors.ts';

/** The file `calc serve` holds an exclusive lock on; it also names the holder, for the message. */
const LOCK_FILE = 'calc.lock';

const LOCK_EX = 2;
const LOCK_NB = 4;
const EWOULDBLOCK = 11;
const EINTR = 4;

/**
 * flock(2) from the C library. The kernel drops the lock when the process ends in any way
 * (kill -9 included), which a PID file alone cannot promise; Node and Bun expose no flock,
 * and the npm packages that do are native addons a compiled executable cannot load.
 */
let libc: ReturnType<typeof openLibc> | undefined;
function openLibc() {
  // glibc on Linux, the platform calc is built for (errno values below are Linux's).
  return dlopen('libc.so.6', {
    flock: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
  });
}

function flock(fd: number, operation: number): { ok: true } | { ok: false; errno: number } {
  libc ??= openLibc();
  if (libc.symbols.flock(fd, operation) === 0) return { ok: true };
  const errnoAt = libc.symbols.__errno_location();
  return { ok: false, errno: errnoAt === null ? -1 : read.i32(errnoAt, 0) };
}

export interface DirLock {
  release(): void;
}

/**
 * Takes the data directory's exclusive lock without waiting, or throws a DataDirError
 * naming the process that holds it. The lock lives as long as the returned handle (or the
 * process); the file stays, so the next start finds no stale state to clean up.
 */
export function lockDataDir(dataDir: string, holder = `calc serve (pid ${process.pid})`): DirLock {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = join(dataDir, LOCK_FILE);
  const fd = openSync(file, 'a+', 0o600);
  const taken = flock(fd, LOCK_EX | LOCK_NB);
  if (!taken.ok) {
    closeSync(fd);
    if (taken.errno === EWOULDBLOCK) {
      const current = readHolder(file);
      throw new DataDirError(
        `The data directory ${dataDir} is in use by ${current || 'another calc serve'}: one server per data directory. Stop that server first, or give this one another --data.`,
      );
    }
    throw new DataDirError(`Could not lock the data directory ${dataDir} (${file}: errno ${taken.errno}).`);
  }
  ftruncateSync(fd, 0);
  writeSync(fd, `${holder}, started ${new Date().toISOString()}\n`);
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      closeSync(fd);
    },
  };
}

function readHolder(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().slice(0, 200);
  } catch {
    return '';
  }
}

/**
 * Runs `work` while holding an exclusive lock on the directory itself (not on
 * `calc.lock`, which a running server holds), waiting while another process holds it:
 * a first start's creation and migrations in another process take milliseconds.
 */
export function withDirLock<T>(dir: string, work: () => T): T {
  const fd = openSync(dir, 'r');
  try {
    let taken = flock(fd, LOCK_EX);
    while (!taken.ok && taken.errno === EINTR) taken = flock(fd, LOCK_EX);
    if (!taken.ok) throw new DataDirError(`Could not lock the directory ${dir} (errno ${taken.errno}).`);
    return work();
  } finally {
    closeSync(fd);
  }
}
