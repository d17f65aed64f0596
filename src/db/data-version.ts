import { constants, type Database } from 'bun:sqlite';

/**
 * The database's data version as this connection last saw it: a counter SQLite changes
 * with every commit to the file, by any connection or process, this one's own included
 * (`SQLITE_FCNTL_DATA_VERSION`; `PRAGMA data_version` would miss this connection's own).
 * A file control that reads it from memory: no I/O, no lock. Read after a statement of the
 * same call, it is as fresh as that statement's view; unchanged since a row was read,
 * nothing was committed since, so the row is current.
 */
export function dataVersionOf(sqlite: Database): () => number {
  const version = new Uint32Array(2);
  return () => {
    sqlite.fileControl(constants.SQLITE_FCNTL_DATA_VERSION, version);
    return version[0] as number;
  };
}
