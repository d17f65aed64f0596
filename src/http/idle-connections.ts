import { dlopen, FFIType } from 'bun:ffi';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

type ShutdownCall = (fd: number, how: number) => number;

/** `shutdown(2)`'s "both directions". */
const SHUT_RDWR = 2;
/** `/proc/net/tcp` states: established, and half-closed by the peer. */
const OPEN_STATES = new Set(['01', '08']);

let shutdownCall: ShutdownCall | null | undefined;

/** libc's `shutdown(2)`, loaded on first use; null where it cannot be (not Linux, no libc). */
function loadShutdown(): ShutdownCall | null {
  if (shutdownCall !== undefined) return shutdownCall;
  shutdownCall = null;
  if (process.platform !== 'linux') return null;
  try {
    const libc = dlopen('libc.so.6', { shutdown: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    shutdownCall = (fd, how) => libc.symbols.shutdown(fd, how);
  } catch {
    shutdownCall = null;
  }
  return shutdownCall;
}

/**
 * Closes the server's connections on `port` whose peer port is not in `busyPeers` (the
 * requests in progress), and answers how many.
 *
 * Bun's graceful stop closes idle keep-alive connections, but keeps a connection that
 * has sent nothing or only part of a request head until the client finishes or its idle
 * timeout (about 10 s): such connections held a shutdown until its deadline. Bun offers
 * no handle on them, so they are found as the kernel lists them (`/proc/net/tcp*` by
 * port, `/proc/self/fd` for the descriptor) and shut down both ways: the client sees
 * the end of the connection at once, and Bun, reading that end, closes its side. A peer
 * port shared with a request in progress is spared (its connection closes at the
 * deadline at the latest). Runs synchronously, so no descriptor can be closed and reused
 * meanwhile; without `/proc` or libc it closes nothing.
 */
export function closeIdleConnections(port: number, busyPeers: ReadonlySet<number>): number {
  const shutdown = loadShutdown();
  if (!shutdown) return 0;
  let sockets: Map<string, number>;
  let table: string;
  try {
    sockets = socketDescriptors();
    table = ['/proc/net/tcp', '/proc/net/tcp6'].map((file) => readFileSync(file, 'utf8')).join('\n');
  } catch {
    return 0;
  }
  let closed = 0;
  for (const line of table.split('\n')) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
    const fields = line.trim().split(/\s+/);
    const inode = fields[9];
    if (!inode || !OPEN_STATES.has(fields[3] ?? '')) continue;
    if (portOf(fields[1]) !== port || busyPeers.has(portOf(fields[2]))) continue;
    const fd = sockets.get(inode);
    if (fd !== undefined && shutdown(fd, SHUT_RDWR) === 0) closed += 1;
  }
  return closed;
}

/** Socket inode → this process's descriptor for it. */
function socketDescriptors(): Map<string, number> {
  const sockets = new Map<string, number>();
  for (const fd of readdirSync('/proc/self/fd')) {
    let target: string;
    try {
      target = readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      continue; // closed since the listing
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode) sockets.set(inode, Number(fd));
  }
  return sockets;
}

/** The port of a `/proc/net/tcp` address (`0100007F:1F90`, hex). */
function portOf(address: string | undefined): number {
  return Number.parseInt(address?.slice(address.lastIndexOf(':') + 1) ?? '', 16);
}
