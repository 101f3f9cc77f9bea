import type { SqliteDatabase } from './database.js';

/**
 * How many transactions have written vectors to the folder, from any
 * connection or process, kept in index_meta. A connection caching vector
 * scans (sqlite-search-index.ts) drops its caches when this moves by another
 * connection's hand, not at every other commit: a segment merge
 * (segment-merges.ts) or another process's grep indexing writes the file
 * without touching a vector, and reloading a million vectors after each
 * such commit would cost seconds.
 */
const KEY = 'vector_writes';

/** The count as committed (0 in a folder that never counted). */
export function readVectorWrites(db: SqliteDatabase): number {
  return Number(db.prepare('SELECT value FROM index_meta WHERE key = ?').pluck().get(KEY) ?? 0);
}

/** Within a transaction that wrote vectors: counts it, and returns the count it makes (one more than it found). */
export function countVectorWrite(db: SqliteDatabase): number {
  const count = db
    .prepare(
      `INSERT INTO index_meta (key, value) VALUES (?, '1')
       ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
       RETURNING value`,
    )
    .pluck()
    .get(KEY);
  return Number(count);
}
