import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database, { type Statement } from 'better-sqlite3';
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
  reuseStatements(db);
  return db;
}

/** Distinct SQL texts whose prepared statements are kept (least recently used dropped first). */
const CACHED_STATEMENTS = 512;

/**
 * Makes `db.prepare` hand back the statement it prepared before for the same
 * SQL. Each prepared statement holds native memory that V8 does not see, so
 * it is freed only when the garbage collector happens to run: preparing
 * afresh on every call (as every adapter here writes it) grew a process by
 * gigabytes over a few hundred thousand captures (bench:libraries: 2.3 GB
 * for 5,000 small libraries). A statement still running (an unfinished
 * iterate()) is never handed out twice: the caller gets a fresh one. A
 * reader's `pluck()` mode is reset, so each caller sets its own.
 */
function reuseStatements(db: SqliteDatabase): void {
  const prepare = db.prepare.bind(db) as (sql: string, ...internal: unknown[]) => Statement;
  const cache = new Map<string, Statement>();
  db.prepare = ((sql: string, ...internal: unknown[]) => {
    // better-sqlite3 calls prepare with more arguments for its own pragma statements: those pass through.
    if (internal.length) return prepare(sql, ...internal);
    const cached = cache.get(sql);
    if (cached && !cached.busy) {
      cache.delete(sql);
      cache.set(sql, cached);
      return cached.reader ? cached.pluck(false) : cached;
    }
    const statement = prepare(sql);
    if (!cached) {
      cache.set(sql, statement);
      if (cache.size > CACHED_STATEMENTS) cache.delete(cache.keys().next().value!);
    }
    return statement;
  }) as SqliteDatabase['prepare'];
}

/** sqlite-vec, loaded only to read a folder's vectors from before the plain vector table (sqlite-index-schema.ts). */
export function loadSqliteVec(db: SqliteDatabase): void {
  sqliteVec.load(db);
}
