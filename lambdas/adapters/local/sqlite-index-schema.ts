import { isShortMemory } from '../../core/memory-context.js';
import type { ItemKind } from '../../core/model.js';
import { loadSqliteVec, type SqliteDatabase } from './database.js';
import { countKeywordWrite } from './keyword-writes.js';
import { metadataTableSchema } from './sqlite-filter.js';
import { KIND_TOKEN, METADATA_TABLE } from './sqlite-index-sql.js';
import { type KeywordRowItem, type MemoryContextRows, WHOLE_ITEM_PASSAGES } from './sqlite-memory-contexts.js';

/**
 * The SQLite search index's tables: their DDL, the columns added to an
 * older folder's items, the one-time move of a vec0 folder's vectors into
 * the plain vector table, and the rebuild of items_fts for its context
 * field. Apart from the index (sqlite-search-index.ts) because it runs once
 * when a folder opens, and because the reindex (sqlite-reindex.ts) makes
 * the same vector tables without the index.
 */

/**
 * Each item's words for the keyword leg: its title and text, and for a short
 * memory its neighbours' texts (context; core/memory-context.ts).
 */
const ITEMS_FTS = `CREATE VIRTUAL TABLE items_fts USING fts5(
  library, kind, title, body, context, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
)`;

const schema = (dimensions: number) => `
CREATE TABLE IF NOT EXISTS index_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS index_libraries (
  id INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  end_user_id TEXT NOT NULL,
  UNIQUE (tenant_id, end_user_id)
);
CREATE TABLE IF NOT EXISTS items (
  rowid INTEGER PRIMARY KEY,
  item_id TEXT NOT NULL UNIQUE,
  library_id INTEGER NOT NULL REFERENCES index_libraries(id),
  kind TEXT NOT NULL,
  title TEXT,
  source_ref TEXT,
  content_date TEXT NOT NULL,
  text TEXT NOT NULL,
  generation TEXT,
  -- A short memory (core/memory-context.ts): read in the keyword leg with the ones captured around it.
  short_memory INTEGER NOT NULL DEFAULT 0,
  -- A document's metadata (JSON; NULL for none), kind and content type: what filters read (sqlite-filter.ts).
  metadata TEXT,
  doc_kind TEXT,
  content_type TEXT
);
${metadataTableSchema(METADATA_TABLE)}
-- Library generations ended by an erasure: a put under one of them is refused (random tokens; nothing personal).
CREATE TABLE IF NOT EXISTS index_ended_generations (generation TEXT PRIMARY KEY) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS items_newest ON items(library_id, content_date DESC, item_id DESC);
-- A library's short memories in capture order (item ids are ULIDs): their neighbours.
CREATE INDEX IF NOT EXISTS items_short_memories ON items(library_id, item_id) WHERE short_memory = 1;
CREATE TABLE IF NOT EXISTS passages (
  rowid INTEGER PRIMARY KEY,
  item_rowid INTEGER NOT NULL REFERENCES items(rowid),
  ordinal INTEGER NOT NULL,
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  text TEXT NOT NULL
);
-- By item, in order: the ingestion worker walks an item's passages without vectors lowest first.
CREATE INDEX IF NOT EXISTS passages_item_ordinal ON passages(item_rowid, ordinal);
DROP INDEX IF EXISTS passages_item;
-- A per-passage keyword table of early versions: never read since search ranks items.
DROP TABLE IF EXISTS passages_fts;
CREATE VIRTUAL TABLE IF NOT EXISTS items_trigram USING fts5(text, content='', contentless_delete=1, tokenize='trigram');
-- Documents whose text has yet to enter items_trigram (sqlite-trigram-backlog.ts).
CREATE TABLE IF NOT EXISTS items_trigram_pending (rowid INTEGER PRIMARY KEY);
${vectorTable(dimensions)};
${REINDEX_TABLE};
`;

/** A library reindex's new vectors (sqlite-reindex.ts), kept apart until all are made; empty otherwise. */
export const REINDEX_TABLE = `CREATE TABLE IF NOT EXISTS reindex_vectors (
  rowid INTEGER PRIMARY KEY,
  library_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text_hash TEXT NOT NULL,
  embedding BLOB NOT NULL
)`;

/**
 * The passage vectors: one row each, float32 of one embedder's dimensions,
 * read a library at a time through the library index. A plain table, not a
 * sqlite-vec vec0 table partitioned by library: vec0 reserves a chunk of
 * 1,024 vectors for every library however few it holds (3,000 libraries of
 * 80 passages took 6.3 GB for 490 MB of vectors), and search never used its
 * k-NN (VectorScan searches in memory).
 */
export const vectorTable = (dimensions: number, table = 'passage_vectors') => `CREATE TABLE IF NOT EXISTS ${table} (
  rowid INTEGER PRIMARY KEY,
  library_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  embedding BLOB NOT NULL CHECK (length(embedding) = ${dimensions * 4})
);
CREATE INDEX IF NOT EXISTS passage_vectors_by_library ON ${table} (library_id)`;

/**
 * A folder written before the plain vector table: its vec0 table's rows move
 * into the plain one in one transaction (sqlite-vec is loaded for this only:
 * a vec0 table cannot be read or dropped without it).
 */
function migrateVec0Vectors(db: SqliteDatabase, dimensions: number): void {
  const row = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'passage_vectors'`).get() as
    | { sql: string }
    | undefined;
  if (!row || !/USING\s+vec0/i.test(row.sql)) return;
  loadSqliteVec(db);
  db.transaction(() => {
    // A vec0 table cannot be renamed: the plain one is made beside it and takes its name once it is gone.
    db.exec(vectorTable(dimensions, 'passage_vectors_plain'));
    db.exec(
      'INSERT INTO passage_vectors_plain (rowid, library_id, kind, embedding) SELECT rowid, library_id, kind, embedding FROM passage_vectors',
    );
    db.exec('DROP TABLE passage_vectors');
    db.exec('ALTER TABLE passage_vectors_plain RENAME TO passage_vectors');
  }).immediate();
}

/** The columns added to items since the first folders: an older folder's items table gets them. */
function migrateItemColumns(db: SqliteDatabase): void {
  const hadItems = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'items'`).get();
  if (!hadItems) return;
  const columns = new Set((db.prepare('PRAGMA table_info(items)').all() as Array<{ name: string }>).map((c) => c.name));
  if (!columns.has('generation')) db.exec('ALTER TABLE items ADD COLUMN generation TEXT');
  if (!columns.has('short_memory')) db.exec('ALTER TABLE items ADD COLUMN short_memory INTEGER NOT NULL DEFAULT 0');
  for (const column of ['metadata', 'doc_kind', 'content_type'])
    if (!columns.has(column)) db.exec(`ALTER TABLE items ADD COLUMN ${column} TEXT`);
  // Documents indexed before filters: their kind and content type come from their records (the same file locally).
  const hasDocuments = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'documents'`).get();
  if (!columns.has('doc_kind') && hasDocuments) {
    db.exec(`UPDATE items SET
      doc_kind = (SELECT d.kind FROM documents d WHERE d.id = items.item_id),
      content_type = (SELECT d.content_type FROM documents d WHERE d.id = items.item_id)
      WHERE kind IN ('file_excerpt', 'image')`);
  }
}

/**
 * Brings a folder's tables to this version: an older folder's items get the
 * newer columns and its vec0 vectors move to the plain table, then every
 * table and index is made if missing. items_fts is left to buildItemsFts.
 */
export function openIndexSchema(db: SqliteDatabase, dimensions: number): void {
  migrateItemColumns(db);
  migrateVec0Vectors(db, dimensions);
  db.exec(schema(dimensions));
}

/**
 * Data folders made before items_fts had its context field (or before it
 * existed) get it rebuilt once from the stored texts.
 */
export function buildItemsFts(db: SqliteDatabase, contexts: MemoryContextRows): void {
  const sql = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'items_fts'`).pluck().get() as
    | string
    | undefined;
  if (!sql?.includes('context')) rebuildItemsFts(db, contexts);
  rankLongItemsByPassages(db, contexts);
}

/**
 * Folders written before long items were ranked by their passages
 * (WHOLE_ITEM_PASSAGES) get those items' keyword rows rewritten once, a row
 * per passage.
 */
function rankLongItemsByPassages(db: SqliteDatabase, contexts: MemoryContextRows): void {
  if (db.prepare(`SELECT 1 FROM index_meta WHERE key = 'items_fts_passages'`).get()) return;
  db.transaction(() => {
    const long = db
      .prepare(
        `SELECT i.rowid, i.library_id, i.kind, i.title, i.text FROM items i
         WHERE i.short_memory = 0 AND i.rowid IN (
           SELECT item_rowid FROM passages GROUP BY item_rowid HAVING count(*) > ?)`,
      )
      .all(WHOLE_ITEM_PASSAGES) as KeywordRowItem[];
    for (const item of long) contexts.writeItemRows(item, contexts.passagesOf(item.rowid));
    if (long.length) countKeywordWrite(db);
    db.prepare(`INSERT OR IGNORE INTO index_meta (key, value) VALUES ('items_fts_passages', '1')`).run();
  }).immediate();
}

/** Data folders made before items_fts had its context field (or before it existed): the table built from the stored texts. */
function rebuildItemsFts(db: SqliteDatabase, contexts: MemoryContextRows): void {
  db.transaction(() => {
    db.exec(`DROP TABLE IF EXISTS items_fts; ${ITEMS_FTS}`);
    const items = db
      .prepare(
        'SELECT i.rowid, i.kind, (SELECT count(*) FROM passages p WHERE p.item_rowid = i.rowid) AS passages FROM items i',
      )
      .all() as Array<{ rowid: number; kind: ItemKind; passages: number }>;
    const markShort = db.prepare('UPDATE items SET short_memory = ? WHERE rowid = ?');
    for (const item of items)
      markShort.run(isShortMemory({ kind: item.kind, passages: new Array(item.passages) }) ? 1 : 0, item.rowid);
    db.exec(`INSERT INTO items_fts (rowid, library, kind, title, body, context)
      SELECT rowid, 'lib' || library_id,
        CASE kind ${Object.entries(KIND_TOKEN)
          .map(([k, t]) => `WHEN '${k}' THEN '${t}'`)
          .join(' ')} END,
        coalesce(title, ''), text, ''
      FROM items WHERE short_memory = 0`);
    for (const libraryId of db.prepare('SELECT id FROM index_libraries').pluck().all() as number[])
      contexts.rewriteAllContexts(libraryId);
    // The former backfill's marker: a build of before this one must not fill the table again.
    db.prepare(`INSERT OR IGNORE INTO index_meta (key, value) VALUES ('items_fts', '1')`).run();
  }).immediate();
}
