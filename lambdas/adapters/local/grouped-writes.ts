import type { SqliteDatabase } from './database.js';

/**
 * Group commit for one SQLite connection: the writes submitted together
 * run in a single IMMEDIATE transaction. "Together" is before the microtasks
 * already queued when the first of them was submitted have run: work started
 * at once and moving in step (a batch's items) meets in one group. Not on
 * the next macrotask: a caller's loop of awaits that never yields to it
 * would starve the flush, and a capture would wait behind any timer. Every
 * write's promise settles once that transaction has committed. When one of
 * them throws, the whole transaction is rolled back and each write runs
 * again in a transaction of its own, so the one that throws fails alone and
 * the others still land (the rare path: an erasure or a reindex racing a
 * capture).
 *
 * Why: an FTS5 table flushes its pending terms into a new segment at every
 * commit. A 2 KB document indexed in a transaction of its own cost about
 * 0.55 ms for the trigram table and 0.21 ms for the word table; sharing a
 * transaction with 300 others, 0.16 ms and 0.04 ms. A batch of captures (or
 * several clients capturing at once) now pays for one commit. Not a savepoint
 * per write: FTS5 flushes at every savepoint too (0.39 ms a document).
 */
export class GroupedWrites {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly db: SqliteDatabase,
    /** At most this many writes share a transaction: the main thread is held for the whole of one. */
    private readonly maxGroup = 64,
  ) {}

  /**
   * Runs `write` in the next group's transaction and resolves with its value
   * once committed, after `committed` (what must follow the commit, such as
   * in-memory caches) has run with it. `write` must only touch the
   * connection: it may run twice (the first run rolled back).
   */
  submit<T>(write: () => T, committed?: (value: T) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({
        write,
        committed: committed as ((value: unknown) => void) | undefined,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      if (!this.scheduled) {
        this.scheduled = true;
        queueMicrotask(() => this.flush());
      }
    });
  }

  private flush(): void {
    const group = this.pending.splice(0, this.maxGroup);
    this.scheduled = this.pending.length > 0;
    if (this.scheduled) queueMicrotask(() => this.flush());
    let values: unknown[];
    let writeThrew = false;
    const runWrite = ({ write }: Pending) => {
      try {
        return write();
      } catch (error) {
        writeThrew = true;
        throw error;
      }
    };
    try {
      values = this.db.transaction(() => group.map(runWrite)).immediate();
    } catch (error) {
      if (writeThrew) {
        // Nothing of the group was kept. Each alone, as if never grouped: only the one that throws fails.
        for (const pending of group) this.runAlone(pending);
      } else {
        // The transaction could not begin or commit (another process holds the file past the busy timeout,
        // the disk is full): it would fail again for each, so each fails now.
        for (const { reject } of group) reject(error);
      }
      return;
    }
    group.forEach((pending, i) => this.settle(pending, values[i]));
  }

  private runAlone(pending: Pending): void {
    let value: unknown;
    try {
      value = this.db.transaction(pending.write).immediate();
    } catch (error) {
      pending.reject(error);
      return;
    }
    this.settle(pending, value);
  }

  private settle({ committed, resolve, reject }: Pending, value: unknown): void {
    try {
      committed?.(value);
    } catch (error) {
      reject(error);
      return;
    }
    resolve(value);
  }
}

interface Pending {
  write: () => unknown;
  committed?: (value: unknown) => void;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const perConnection = new WeakMap<SqliteDatabase, GroupedWrites>();

/** The connection's one group commit, shared by every adapter on it (a group is one transaction of the connection). */
export function groupedWrites(db: SqliteDatabase): GroupedWrites {
  let writes = perConnection.get(db);
  if (!writes) perConnection.set(db, (writes = new GroupedWrites(db)));
  return writes;
}
