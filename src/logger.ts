/** Structured JSON logs, one line per event. Callers pass facts, never bodies or secrets. */
export type LogLevel = 'info' | 'warn' | 'error';

export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(write: (line: string) => void = (line) => process.stderr.write(line), now: () => Date = () => new Date()): Logger {
  const log = (level: LogLevel) => (msg: string, fields: Record<string, unknown> = {}) => {
    write(`${JSON.stringify({ time: now().toISOString(), level, msg, ...fields })}\n`);
  };
  return { info: log('info'), warn: log('warn'), error: log('error') };
}

/** For tests and tools that must stay quiet. */
export const silentLogger: Logger = { info() {}, warn() {}, error() {} };
