/**
 * The data directory cannot be used as it is (held by another server, an unreadable
 * database, a lost secret). The message says what is wrong and what the operator can do;
 * commands print it as one line and exit 1, without a stack trace.
 */
export class DataDirError extends Error {}
