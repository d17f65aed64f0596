import { Database } from 'bun:sqlite';
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { startServe } from './process.ts';

/** `calc serve --demo` on `data`: the demo account's API key and its registered origin. */
export async function serveDemo(calc: string, data: string, args: string[] = [], env: Record<string, string> = {}) {
  const server = await startServe([calc], ['--data', data, '--demo', ...args], env);
  const apiKey = /API key:\s+(\S+)/.exec(server.stdout())?.[1];
  const origin = /origins:\s+([^,\s]+)/.exec(server.stdout())?.[1];
  return { server, apiKey, origin };
}

/** One widget load; the answer's status. */
export async function widgetLoad(url: string, apiKey: string, domain: string): Promise<number> {
  const response = await fetch(`${url}/v1/widget/load`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey, domain, calcId: 'bmi' }),
  });
  await response.arrayBuffer();
  return response.status;
}

/** The loads the database holds, summed over accounts and months (or the per-day rows). */
export function storedLoads(data: string, table: 'usage' | 'usage_daily' = 'usage'): number {
  const db = new Database(join(data, 'calc.db'), { readonly: true });
  try {
    return (db.query(`SELECT coalesce(sum(loads), 0) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/**
 * A small tmpfs (root only) to fill up: a real full disk under the data directory.
 * Unmounted at the end of the scope.
 */
export function smallDisk(parent: string, sizeKiB = 2048) {
  const path = join(parent, 'disk');
  mkdirSync(path);
  const mount = Bun.spawnSync(['mount', '-t', 'tmpfs', '-o', `size=${sizeKiB}k,mode=0700`, 'tmpfs', path]);
  if (mount.exitCode !== 0) {
    throw new Error(`the full-disk tests mount a tmpfs and need root: ${mount.stderr.toString().trim()}`);
  }
  const filler = join(path, 'filler');
  return {
    path,
    /** Writes until the file system says ENOSPC. */
    fill() {
      const fd = openSync(filler, 'w');
      const block = Buffer.alloc(64 * 1024);
      try {
        for (;;) writeSync(fd, block);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        closeSync(fd);
      }
    },
    free() {
      rmSync(filler, { force: true });
    },
    [Symbol.dispose]() {
      Bun.spawnSync(['umount', '-l', path]);
    },
  };
}

/** A raw TCP connection to a listening URL, for clients that send little or nothing. */
export async function rawConnection(url: string) {
  const { hostname, port } = new URL(url);
  const socket: Socket = await new Promise((resolve, reject) => {
    const s = connect(Number(port), hostname, () => resolve(s));
    s.once('error', reject);
  });
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return {
    /** This end's port: the peer port the server sees. */
    localPort: socket.localPort ?? 0,
    write: (text: string) => new Promise<void>((resolve) => socket.write(text, () => resolve())),
    received: () => received,
    /** Resolves when the server has answered something that contains `text`. */
    async answered(text: string) {
      while (!received.includes(text)) {
        await new Promise<void>((resolve, reject) => {
          socket.once('data', () => resolve());
          socket.once('close', () => (received.includes(text) ? resolve() : reject(new Error(`closed: ${received}`))));
        });
      }
    },
    closed,
    destroy: () => socket.destroy(),
  };
}

/** The JSON lines of a server's stderr. */
export function logLines(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The head of a widget load whose body is announced but not (all) sent. It asks for
 * `100 Continue`, which the server sends once a handler reads the body: from then on the
 * request is in progress.
 */
export function partialLoad(host: string, body: string, declaredLength: number): string {
  return `POST /v1/widget/load HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${declaredLength}\r\n\r\n${body}`;
}

/**
 * Whether the kernel has handed the connection from `clientPort` to the server listening
 * on `serverPort` (established on the server's side). A connection that has sent nothing
 * waits in the kernel for up to about a second before it is (Bun defers the accept until
 * data arrives), and until then the server cannot know it.
 */
export function acceptedByServer(serverPort: number, clientPort: number): boolean {
  const hex = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');
  return ['/proc/net/tcp', '/proc/net/tcp6'].some((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .some((line) => {
        const [, local, remote, state] = line.trim().split(/\s+/);
        return local?.endsWith(`:${hex(serverPort)}`) && remote?.endsWith(`:${hex(clientPort)}`) && state === '01';
      }),
  );
}
