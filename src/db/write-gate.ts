import type { Database } from 'bun:sqlite';

const noop = () => {};

/**
 * bun:sqlite gives a process one connection. A transaction whose work awaits keeps
 * every other write out until it ends; otherwise that write would commit, or roll
 * back, with it. Writes run at once when no transaction is open or waiting.
 */
function createWriteGate(sqlite: Database) {
  let queue: Promise<unknown> = Promise.resolve();
  let waiting = 0;

  function enqueue<T>(run: () => Promise<T>): Promise<T> {
    waiting += 1;
    const result = queue.then(run).finally(() => {
      waiting -= 1;
    });
    queue = result.then(noop, noop);
    return result;
  }

  return {
    write<T>(fn: () => T): Promise<T> {
      if (waiting === 0) {
        try {
          return Promise.resolve(fn());
        } catch (error) {
          return Promise.reject(error);
        }
      }
      return enqueue(async () => fn());
    },

    transaction<T>(work: () => Promise<T>): Promise<T> {
      return enqueue(async () => {
        // IMMEDIATE takes the write lock now, so a read-then-write cannot be overtaken
        // by another process between the two.
        sqlite.run('BEGIN IMMEDIATE');
        try {
          const result = await work();
          sqlite.run('COMMIT');
          return result;
        } catch (error) {
          // SQLite rolls a transaction back by itself on a full disk or an I/O error (in
          // the work or at COMMIT); a ROLLBACK then fails ("no transaction is active") and
          // would hide the error that says why.
          if (sqlite.inTransaction) sqlite.run('ROLLBACK');
          throw error;
        }
      });
    },
  };
}

export type WriteGate = ReturnType<typeof createWriteGate>;

const gates = new WeakMap<Database, WriteGate>();

/** The one gate of a database, shared by every store over it. */
export function writeGateOf(sqlite: Database): WriteGate {
  let gate = gates.get(sqlite);
  if (!gate) {
    gate = createWriteGate(sqlite);
    gates.set(sqlite, gate);
  }
  return gate;
}

/** For the stores a transaction's work uses: they are already inside the gate. */
export const insideTransaction: Pick<WriteGate, 'write'> = {
  write<T>(fn: () => T): Promise<T> {
    try {
      return Promise.resolve(fn());
    } catch (error) {
      return Promise.reject(error);
    }
  },
};
