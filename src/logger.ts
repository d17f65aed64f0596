/** Structured JSON logs, one line per event. Callers pass facts, never bodies or secrets. */
type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /**
   * The writer of request lines (`msg: "request"`) for one method and path. Those two are
   * serialised once and each line is one template: a line per request is the busiest log
   * work, and building and serialising a fields object for it cost the widget routes 2–5%
   * of their throughput. `requestId` must need no JSON escaping.
   */
  requestLines(method: string, path: string): RequestLineWriter;
}

export type RequestLineWriter = (requestId: string | undefined, status: number, ms: number | undefined) => void;

export function createLogger(write: (line: string) => void = batchedWriter(), now: () => number = Date.now): Logger {
  // Busy servers write many lines within one millisecond: format its time once.
  let lastMs = Number.NaN;
  let lastTime = '';
  const timeNow = () => {
    const ms = now();
    if (ms !== lastMs) {
      lastMs = ms;
      lastTime = new Date(ms).toISOString();
    }
    return lastTime;
  };
  // The fields are serialised as they are (no copy into a new object).
  const log = (level: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    const head = `{"time":"${timeNow()}","level":"${level}","msg":${JSON.stringify(msg)}`;
    const rest = fields === undefined ? '{}' : JSON.stringify(fields);
    write(rest === '{}' ? `${head}}\n` : `${head},${rest.slice(1)}\n`);
  };
  const requestLines = (method: string, path: string): RequestLineWriter => {
    const route = `"method":${JSON.stringify(method)},"path":${JSON.stringify(path)}`;
    return (requestId, status, ms) => {
      const id = requestId === undefined ? '' : `,"requestId":"${requestId}"`;
      write(
        `{"time":"${timeNow()}","level":"info","msg":"request"${id},${route},"status":${status}${ms === undefined ? '' : `,"ms":${ms}`}}\n`,
      );
    };
  };
  return { info: log('info'), warn: log('warn'), error: log('error'), requestLines };
}

/**
 * Writes lines in batches (to stderr unless told otherwise): at most every `delayMs`, or
 * at once past `maxChars`. A write per line is a syscall per request on a busy server;
 * batched, a batch of lines shares one. Whatever is pending is written when the process
 * exits, after a clean stop or an uncaught error alike.
 */
export function batchedWriter(
  out: (chunk: string) => void = (chunk) => process.stderr.write(chunk),
  options: { delayMs?: number; maxChars?: number } = {},
): (line: string) => void {
  const { delayMs = 20, maxChars = 64 * 1024 } = options;
  let pending = '';
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    out(chunk);
  };
  process.once('exit', flush);
  return (line) => {
    pending += line;
    if (pending.length >= maxChars) flush();
    else if (timer === undefined) timer = setTimeout(flush, delayMs).unref();
  };
}

/** For tests and tools that must stay quiet. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {}, requestLines: () => () => {} };
