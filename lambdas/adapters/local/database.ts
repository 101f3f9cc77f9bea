import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';

export type SqliteDatabase = Database.Database;

/**
 * Opens the embedded database: one SQLite file in WAL mode, so readers never
 * block the writer and a crash never leaves half a transaction. Every write
 * that must be atomic runs in one transaction. Deleted content is zeroed
 * (secure_delete), so an erasure is final for whoever copies the file.
 */
export function openDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // A new file's pages are 16 KiB (an existing file keeps its own): a passage's 2 KiB vector is one row, and seven
  // fit a page where two 4 KiB pages took one each; the data folder stays near the size of what it holds.
  db.pragma('page_size = 16384');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Deleted content is overwritten with zeros, so erased text does not linger in free pages (see scrub in sqlite-search-index.ts).
  db.pragma('secure_delete = ON');
  return db;
}

/** sqlite-vec, loaded only to read a folder's vectors from before the plain vector table (sqlite-index-schema.ts). */
export function loadSqliteVec(db: SqliteDatabase): void {
  sqliteVec.load(db);
}
