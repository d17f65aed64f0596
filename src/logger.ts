/** Structured JSON logs, one line per event. Callers pass facts, never bodies or secrets. */
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

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
  // The fields are serialised as they are (no copy into a new object): one line per request.
  const log = (level: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    const head = `{"time":"${timeNow()}","level":"${level}","msg":${JSON.stringify(msg)}`;
    const rest = fields === undefined ? '{}' : JSON.stringify(fields);
    write(rest === '{}' ? `${head}}\n` : `${head},${rest.slice(1)}\n`);
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

/**
 * Writes lines in batches (to stderr unless told otherwise): at most every `delayMs`, or
 * at once past `maxChars`. A write per line is a syscall per request on a busy server;
 * batched, a batch of lines shares one. Whatever is pending is written when the process
 * exits, after a clean stop or an uncaught error alike.
 */
export function batchedWriter(out: (chunk: string) => void = (chunk) => process.stderr.write(chunk), options: { delayMs?: number; maxChars?: number } = {}): (line: string) => void {
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
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
