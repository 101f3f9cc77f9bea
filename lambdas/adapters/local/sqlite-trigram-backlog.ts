import type { SqliteDatabase } from './database.js';

/**
 * Documents' short texts waiting to enter the trigram index (items_trigram),
 * and their entry into it a group at a time.
 *
 * FTS5 writes a new segment at every commit: a 2 KB document alone in its
 * transaction cost about 1.2 ms in the trigram table, most of a capture's
 * receipt, against 0.2 ms each for 20 in one transaction. So a put of a
 * short text records the item's rowid here, in its own transaction, and the
 * rowids enter the index together once the thread is free (or at once, a
 * group at a time, when many wait). Nothing depends on when: grep reads
 * every waiting document as a candidate besides those the index names
 * (GREP_CANDIDATES), so a document is found by grep from its receipt on, and
 * a crash leaves the rowids here for the next start to index.
 */

/** The rowids of the documents that may hold a pattern (its bound parameter, quoted for FTS5): indexed, or waiting. */
export const GREP_CANDIDATES =
  '(rowid IN (SELECT rowid FROM items_trigram WHERE items_trigram MATCH ?) OR rowid IN (SELECT rowid FROM items_trigram_pending))';

/** The longest text that waits (characters); a longer one enters the index in its put's transaction. */
const WAITS_UP_TO_CHARS = 16 * 1024;
/** How many texts enter the index in one transaction: 32 notes of 2 KB take about 6 ms of the thread, 32 of 16 KiB about 50. */
const GROUP_ITEMS = 32;
/** Waiting texts past which each put indexes a group at once, so the backlog (and grep's reading of it) stays bounded. */
const MOST_WAITING = 1_024;
/** Time after a put before its group is indexed, so the puts of a batch or of concurrent captures share a commit. */
const SETTLE_MS = 25;

export class TrigramBacklog {
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: SqliteDatabase) {
    // Left by a crash, or by a process that stopped before indexing them.
    if (this.waiting() > 0) this.schedule();
  }

  /**
   * Within the put's transaction: a short text waits to enter the index with
   * others (true); a long one enters now, its commit's cost small beside its
   * own, and a group never holds the thread longer than one text did.
   */
  add(rowid: number, text: string): boolean {
    if (text.length > WAITS_UP_TO_CHARS) {
      this.db.prepare('INSERT INTO items_trigram (rowid, text) VALUES (?, ?)').run(rowid, text);
      return false;
    }
    this.db.prepare('INSERT OR IGNORE INTO items_trigram_pending (rowid) VALUES (?)').run(rowid);
    return true;
  }

  /** Within a removal's transaction: the item's text leaves the index, or never enters it. */
  remove(rowid: number): void {
    if (!this.db.prepare('DELETE FROM items_trigram_pending WHERE rowid = ?').run(rowid).changes)
      this.db.prepare('DELETE FROM items_trigram WHERE rowid = ?').run(rowid);
  }

  /** After the put committed: index a group now when too many wait, and the rest once the thread is free. */
  added(): void {
    if (this.waiting() > MOST_WAITING) this.tryIndexGroup();
    this.schedule();
  }

  /** Every waiting text into the index (before the index is optimized). */
  drain(): void {
    this.cancel();
    while (this.indexGroup() > 0);
  }

  /** No group later (at close: what waits is indexed at the next start). */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => this.indexLater(), SETTLE_MS);
    // Waiting texts are durable: they never keep a process alive.
    this.timer.unref();
  }

  private indexLater(): void {
    this.timer = null;
    if (!this.db.open) return;
    // One group per turn of the event loop: other requests run between groups; a full group may leave more.
    if (this.tryIndexGroup() === GROUP_ITEMS) this.schedule();
  }

  /** A group into the index, or none when the file is busy or failing: the texts stay waiting (and found by grep), and a later put tries again. */
  private tryIndexGroup(): number {
    try {
      return this.indexGroup();
    } catch {
      return 0;
    }
  }

  /** One group of waiting texts into the index, in one transaction; how many. */
  private indexGroup(): number {
    const rowids = this.db
      .prepare('SELECT rowid FROM items_trigram_pending ORDER BY rowid LIMIT ?')
      .pluck()
      .all(GROUP_ITEMS) as number[];
    if (!rowids.length) return 0;
    const last = rowids[rowids.length - 1]!;
    this.db
      .transaction(() => {
        // Read again inside the transaction: another connection may have indexed or removed some since.
        this.db
          .prepare(
            `INSERT INTO items_trigram (rowid, text)
             SELECT i.rowid, i.text FROM items_trigram_pending p JOIN items i ON i.rowid = p.rowid WHERE p.rowid <= ?`,
          )
          .run(last);
        this.db.prepare('DELETE FROM items_trigram_pending WHERE rowid <= ?').run(last);
      })
      .immediate();
    return rowids.length;
  }

  private waiting(): number {
    return this.db.prepare('SELECT count(*) FROM items_trigram_pending').pluck().get() as number;
  }
}
