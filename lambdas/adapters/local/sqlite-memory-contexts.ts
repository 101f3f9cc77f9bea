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

/**
 * Items of more passages than this (about 4,000 characters, a page and a
 * half) are ranked by their passages: each passage is a keyword row of its
 * own (rowid: minus the passage's rowid, beside the item rowids of whole
 * items), holding the item's title and the passage's text, and the item
 * scores its best passage's BM25. BM25 over a whole item divides by its
 * length: a long document holding every word of a query scored far below a
 * two-line note holding one of them (a 300-line text against a code
 * snippet: 0.16 and 1.0). Up to about a page and a half the whole item
 * ranks better (SciFact's abstracts: nDCG@10 0.708 whole against 0.672 by
 * passage; 20 of its 5,183 abstracts are longer than this). Decided by the
 * count of passages, which the writes and the removal both read.
 */
export const WHOLE_ITEM_PASSAGES = 10;

/** The SQL of the item rowid a keyword row belongs to (`rowid`: the row's rowid, qualified: `rowid` alone would be the passage's). */
export const itemOfKeywordRow = (rowid: string) =>
  `CASE WHEN ${rowid} > 0 THEN ${rowid} ELSE (SELECT item_rowid FROM passages WHERE rowid = -(${rowid})) END`;

export class MemoryContextRows {
  private ftsRow?: {
    remove: Statement<[number]>;
    insert: Statement<[number, string, string, string, string, string]>;
    passages: Statement<[number]>;
  };

  constructor(private readonly db: SqliteDatabase) {}

  private statements() {
    this.ftsRow ??= {
      remove: this.db.prepare('DELETE FROM items_fts WHERE rowid = ?'),
      insert: this.db.prepare(
        'INSERT INTO items_fts (rowid, library, kind, title, body, context) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      passages: this.db.prepare('SELECT rowid, text FROM passages WHERE item_rowid = ? ORDER BY ordinal'),
    };
    return this.ftsRow;
  }

  /**
   * Writes an item's one keyword row (replacing it), with its context: a
   * short memory's, or a document's of at most WHOLE_ITEM_PASSAGES passages
   * (writeItemRows); its statements are prepared once (it runs in loops).
   */
  writeFtsRow(item: KeywordRowItem, context: string) {
    const { remove, insert } = this.statements();
    remove.run(item.rowid);
    insert.run(item.rowid, `lib${item.library_id}`, KIND_TOKEN[item.kind], item.title ?? '', item.text, context);
  }

  /**
   * Writes a document's keyword rows (replacing any), given its passages as
   * stored (rowid and text): one row for the whole item, or, past
   * WHOLE_ITEM_PASSAGES, a row per passage holding the item's title.
   */
  writeItemRows(item: KeywordRowItem, passages: ReadonlyArray<{ rowid: number; text: string }>) {
    this.removeFtsRows(
      item.rowid,
      passages.map((p) => p.rowid),
    );
    if (passages.length <= WHOLE_ITEM_PASSAGES) {
      this.writeFtsRow(item, '');
      return;
    }
    const { insert } = this.statements();
    const library = `lib${item.library_id}`;
    for (const passage of passages)
      insert.run(-passage.rowid, library, KIND_TOKEN[item.kind], item.title ?? '', passage.text, '');
  }

  /** An item's passages as stored, in order (what writeItemRows takes). */
  passagesOf(itemRowid: number): Array<{ rowid: number; text: string }> {
    return this.statements().passages.all(itemRowid) as Array<{ rowid: number; text: string }>;
  }

  /** Removes an item's keyword rows (`passageRowids`: its passages, which name its rows when it has one each). */
  removeFtsRows(itemRowid: number, passageRowids: readonly number[]) {
    const { remove } = this.statements();
    remove.run(itemRowid);
    if (passageRowids.length > WHOLE_ITEM_PASSAGES) for (const rowid of passageRowids) remove.run(-rowid);
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
