import type { SqliteDatabase } from './database.js';

/**
 * How many transactions have written the search index's items (their words,
 * titles, passages), from any connection, kept in index_meta. The keyword
 * leg remembers a library's size and its terms' counts until this moves
 * (sqlite-keyword-leg.ts, LibraryCounts), not until any commit to the file:
 * every search writes its usage row (the query's embedding is spend), and at
 * a million passages counting again after each one took a search's p50 over
 * HTTP from 45.7 to 62.1 ms.
 */
const KEY = 'keyword_writes';

/** The count as committed (0 in a folder that never counted). */
export function readKeywordWrites(db: SqliteDatabase): number {
  return Number(db.prepare('SELECT value FROM index_meta WHERE key = ?').pluck().get(KEY) ?? 0);
}

/** Within a transaction that wrote items: counts it. */
export function countKeywordWrite(db: SqliteDatabase): void {
  db.prepare(
    `INSERT INTO index_meta (key, value) VALUES (?, '1')
     ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1`,
  ).run(KEY);
}
