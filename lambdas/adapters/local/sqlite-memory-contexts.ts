import type { Statement } from 'better-sqlite3';
import { allContexts, CONTEXT_READ_EACH_SIDE, type ContextMemory, contextsAround } from '../../core/memory-context.js';
import type { ItemKind } from '../../core/model.js';
import type { SqliteDatabase } from './database.js';
import { KIND_TOKEN } from './sqlite-index-sql.js';

/**
 * The items' keyword rows (items_fts) of the SQLite search index, and the
 * short memories' contexts in them (core/memory-context.ts): a short
 * memory's row holds its neighbours' texts, so it is rewritten whenever a
 * neighbour arrives, leaves or is retitled. Apart from the writes that call
 * it (sqlite-search-index.ts) and the schema that rebuilds items_fts with it
 * (sqlite-index-schema.ts): the neighbour windows are their own rules.
 */

type ShortMemoryRow = ContextMemory & {
  rowid: number;
  library_id: number;
  kind: ItemKind;
  title: string | null;
  text: string;
};

/** What a keyword row is written from: an item row's columns. */
export interface KeywordRowItem {
  rowid: number;
  library_id: number;
  kind: ItemKind;
  title: string | null;
  text: string;
}

export class MemoryContextRows {
  private ftsRow?: { remove: Statement<[number]>; insert: Statement<[number, string, string, string, string, string]> };

  constructor(private readonly db: SqliteDatabase) {}

  /** Writes an item's keyword row (replacing any), with its context; its statements are prepared once (it runs in loops). */
  writeFtsRow(item: KeywordRowItem, context: string) {
    this.ftsRow ??= {
      remove: this.db.prepare('DELETE FROM items_fts WHERE rowid = ?'),
      insert: this.db.prepare(
        'INSERT INTO items_fts (rowid, library, kind, title, body, context) VALUES (?, ?, ?, ?, ?, ?)',
      ),
    };
    this.ftsRow.remove.run(item.rowid);
    this.ftsRow.insert.run(
      item.rowid,
      `lib${item.library_id}`,
      KIND_TOKEN[item.kind],
      item.title ?? '',
      item.text,
      context,
    );
  }

  /**
   * Rewrites the contexts a short memory arriving at or leaving `itemId`'s
   * place in capture order touches (core/memory-context.ts, contextsAround).
   * Call inside a transaction.
   */
  rewriteContextsAround(libraryId: number, itemId: string) {
    const columns = 'rowid, library_id, kind, title, text, item_id AS itemId';
    const before = this.db
      .prepare(
        `SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id < ? ORDER BY item_id DESC LIMIT ?`,
      )
      .all(libraryId, itemId, CONTEXT_READ_EACH_SIDE) as ShortMemoryRow[];
    const at = this.db
      .prepare(`SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id = ?`)
      .get(libraryId, itemId) as ShortMemoryRow | undefined;
    const after = this.db
      .prepare(
        `SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id > ? ORDER BY item_id LIMIT ?`,
      )
      .all(libraryId, itemId, CONTEXT_READ_EACH_SIDE) as ShortMemoryRow[];
    for (const { memory, context } of contextsAround(before.reverse(), at ?? null, after))
      this.writeFtsRow(memory, context);
  }

  /** Rewrites every short memory's context in a library. Call inside a transaction. */
  rewriteAllContexts(libraryId: number) {
    const sequence = this.db
      .prepare(
        'SELECT rowid, library_id, kind, title, text, item_id AS itemId FROM items WHERE library_id = ? AND short_memory = 1 ORDER BY item_id',
      )
      .all(libraryId) as ShortMemoryRow[];
    for (const { memory, context } of allContexts(sequence)) this.writeFtsRow(memory, context);
  }
}
