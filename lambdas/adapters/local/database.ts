import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
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
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  // Deleted content is overwritten with zeros, so erased text does not linger in free pages (see scrub in sqlite-search-index.ts).
  db.pragma('secure_delete = ON');
  sqliteVec.load(db);
  return db;
}
