import { type AppError, type UnavailableCode, unavailable } from '../errors.ts';

/**
 * A call to PostgreSQL given up on after its deadline: the database hangs (or the network
 * to it does). Thrown instead of waiting, so the request answers 503 and the log says so.
 */
export class DatabaseTimeout extends Error {
  override readonly name = 'DatabaseTimeout';
}

/** A failure of the storage underneath, as the request that met it answers it. */
export interface Fault {
  /** 503 `not_ready` or `storage_full`, with `Retry-After`. */
  error: AppError;
  /**
   * The driver's or SQLite's own error (name, code, message) and never the query or its
   * values, which drizzle's wrapper holds: what the operator must read in the log.
   */
  cause: string;
}

const MESSAGES: Readonly<Record<UnavailableCode, string>> = {
  not_ready: 'The database does not answer; try again in a moment.',
  storage_full: "The server's disk is full, so this change cannot be saved; try again later.",
};

// SQLite's extended codes (`SQLITE_IOERR_WRITE`, `SQLITE_READONLY_DBMOVED`…): the file, its
// disk or another process's lock, never the statement. A constraint or a syntax error is
// not here: that is a bug or a refusal the service decides.
const SQLITE_FULL = /^SQLITE_FULL/;
const SQLITE_UNUSABLE = /^SQLITE_(READONLY|IOERR|CANTOPEN|PERM|BUSY|LOCKED|CORRUPT|NOTADB|NOLFS)/;

// PostgreSQL's SQLSTATE (Bun's `errno`): 53100 disk full; class 08 connection exceptions,
// 57P01–57P03 shutting down / crashed / starting up, class 53 out of resources (too many
// connections, memory), 58 system errors (I/O), 25006 a read-only (standby) server.
const PG_FULL = /^53100$/;
const PG_UNUSABLE = /^(08|57P0[123]|53|58|25006)/;
// Bun's client's own codes for a connection that closed, was refused or timed out.
const PG_CONNECTION = /^ERR_POSTGRES_(CONNECTION_|IDLE_TIMEOUT|LIFETIME_TIMEOUT)/;
// Socket and file-system errno names, as Bun and Node spell them.
const ERRNO_FULL = /^(ENOSPC|EDQUOT)$/;
const ERRNO_UNUSABLE =
  /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EROFS|EIO)$/;

type Coded = Error & { code?: unknown; errno?: unknown; cause?: unknown };

/** What one error (not its causes) says about the storage: a fault's code, or nothing. */
function codeOf(error: Coded): UnavailableCode | null {
  if (error instanceof DatabaseTimeout) return 'not_ready';
  const code = typeof error.code === 'string' ? error.code : '';
  // Bun's PostgresError keeps the SQLSTATE in `errno`; SQLite's errno is a number.
  const state = typeof error.errno === 'string' ? error.errno : '';
  if (SQLITE_FULL.test(code) || PG_FULL.test(state) || ERRNO_FULL.test(code)) return 'storage_full';
  if (SQLITE_UNUSABLE.test(code) || PG_UNUSABLE.test(state) || PG_CONNECTION.test(code) || ERRNO_UNUSABLE.test(code))
    return 'not_ready';
  return null;
}

/**
 * The one place that tells a fault of the database from a bug: a PostgreSQL that shuts
 * down, starts up, is unreachable or hangs; a SQLite file on a full, read-only or failing
 * disk. Looks through drizzle's wrapper (`cause`) to the driver's error. Anything else is
 * not a fault (null): a 500 for the error answer.
 */
export function faultOf(error: unknown): Fault | null {
  let e = error as Coded | undefined;
  for (let depth = 0; e instanceof Error && depth < 4; depth++, e = e.cause as Coded | undefined) {
    const code = codeOf(e);
    if (code) return { error: unavailable(code, MESSAGES[code]), cause: causeOf(e) };
  }
  return null;
}

function causeOf(error: Coded): string {
  const state = typeof error.errno === 'string' ? error.errno : typeof error.code === 'string' ? error.code : '';
  return `${error.name}${state ? ` ${state}` : ''}: ${error.message}`;
}
