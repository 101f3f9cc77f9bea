import type { DeferredVectorIndex, GrepScan, KeywordQuery, PutOptions, SearchIndex, VectorQuery } from '../../core/ports.js';
import type { DocumentChanges, GrepCandidate, IndexItem, ItemKind, LibraryRef, Passage, PassageHit } from '../../core/model.js';
import type { Filter } from '../../core/filter.js';
import { compileFilter, deleteMetadataRows, metadataOf, metadataTableSchema, writeMetadataRows, type CompiledFilter } from './sqlite-filter.js';
import { DOCUMENT_KINDS, ITEM_KINDS } from '../../core/model.js';
import { loadSqliteVec, type SqliteDatabase } from './database.js';
import type { Statement } from 'better-sqlite3';
import { BackendUnavailableError, LibraryErasedError } from '../../core/errors.js';
import { coverageOf } from '../../core/keyword-coverage.js';
import { allContexts, CONTEXT_READ_EACH_SIDE, contextsAround, isShortMemory, MEMORY_CONTEXT, type ContextMemory } from '../../core/memory-context.js';
import { describeEmbedder, embedderMismatch, embedderValue, readEmbedderRecord } from './embedder-record.js';
import { VectorScan, type ScanHit } from './vector-scan.js';
import { DEFAULT_VECTOR_CACHE_MB, VectorCache } from './vector-cache.js';
import { keywordTerms } from '../../core/query-terms.js';
import { bestPassage, keywordMatchExpression, quoteTerm } from './fts-query.js';

/**
 * The search index on SQLite: each item's whole text and each passage under
 * FTS5 (Porter-stemmed BM25 with a title field), passage vectors in a
 * plain table (searched in memory by VectorScan: bit-code candidates
 * rescored by exact cosine; the scans of the libraries searched lately are
 * kept under a memory budget, VectorCache), and each
 * document's whole text under an FTS5 trigram index that narrows literal grep
 * to the documents that can match.
 *
 * The keyword leg ranks whole items, then shows each item's best passage:
 * BM25 over a whole abstract beat BM25 over its passages on SciFact train
 * (nDCG@10 0.708 vs 0.672), since a query's words are spread across passages.
 *
 * Every query is restricted to one library: the FTS5 rows carry a library
 * token that every keyword query must match, and vector queries scan only
 * the library's own vectors.
 */
const KIND_TOKEN: Record<ItemKind, string> = { file_excerpt: 'kfile', image: 'kimage', chat: 'kchat', creation: 'kcreation' };
/** Title matches count this much more than body matches in BM25 (tuned on SciFact train: 1-5 within 0.005). */
const TITLE_WEIGHT = 3;
/**
 * Each item's words for the keyword leg: its title and text, and for a short
 * memory its neighbours' texts (context; core/memory-context.ts).
 */
const ITEMS_FTS = `CREATE VIRTUAL TABLE items_fts USING fts5(
  library, kind, title, body, context, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
)`;
/** Keyword hits whose best passage is looked for; deeper ones show their first passage. */
const BEST_PASSAGE_ITEMS = 40;
/**
 * Documents listed (metadata only: texts are read one by one) per step of a
 * grep scan: 64 first, for a page that ends within its first matches, then
 * four times more each step up to 1,024. Each step evaluates the trigram
 * match again (all the library's documents holding a common trigram), so a
 * long scan takes few steps.
 */
const GREP_BATCH = { first: 64, growth: 4, most: 1_024 };

/** One row per metadata scalar of each item (sqlite-filter.ts), scoped by library id. */
const METADATA_TABLE = 'item_metadata';
/** Where a filter reads an item `i`'s fields: a document's as its record has them (core/filter-subject.ts). */
const itemFilter = (filter: Filter, libraryId: number, lookup: 'set' | 'row' = 'set'): CompiledFilter =>
  compileFilter(filter, {
    metadataTable: METADATA_TABLE,
    owner: 'i.rowid',
    scope: libraryId,
    fields: { source_ref: 'i.source_ref', title: 'i.title', content_type: 'i.content_type', created_at: 'i.content_date', content_date: 'i.content_date' },
    kinds: ['i.kind', 'i.doc_kind'],
    lookup,
  });
/**
 * A filtered leg first ranks this many times its limit without the filter
 * and keeps the candidates that match, in order: when at least `limit` of
 * them match (or the leg ranked every item it could), they are exactly the
 * first `limit` matches of the leg's own order, found for little more than
 * an unfiltered query. A selective filter leaves too few; the leg then runs
 * with the filter inside it (bench:filters: a 50% filter cost 2.7x the
 * unfiltered search inside, about 1x this way).
 */
const WIDER_FIRST = 4;
/**
 * The wider top is tried only when the filter keeps at least this share of
 * the library (estimated on FILTER_SAMPLE of its newest items): below it, too
 * few of the wider top would match (a quarter is the break-even at four
 * times), and the pass would be wasted before the filter inside the leg.
 */
const WIDER_FIRST_SHARE = 0.375;
const FILTER_SAMPLE = 512;

/** SQL condition: the item is a document (DOCUMENT_KINDS). */
const DOCUMENTS_ONLY = `kind IN (${DOCUMENT_KINDS.map((k) => `'${k}'`).join(', ')})`;
/**
 * SQL condition on items `i`, with the generation bound twice (null: any):
 * entries of the read's generation and untagged ones (ports.ts,
 * GenerationScoped). Here a second lock: put refuses an ended generation in
 * its transaction, so no entry of one is left to filter.
 */
const IN_GENERATION = '(? IS NULL OR i.generation IS NULL OR i.generation = ?)';
const generationParams = (generation?: string) => [generation ?? null, generation ?? null];

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
  const row = db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'passage_vectors'`).get() as { sql: string } | undefined;
  if (!row || !/USING\s+vec0/i.test(row.sql)) return;
  loadSqliteVec(db);
  db.transaction(() => {
    // A vec0 table cannot be renamed: the plain one is made beside it and takes its name once it is gone.
    db.exec(vectorTable(dimensions, 'passage_vectors_plain'));
    db.exec('INSERT INTO passage_vectors_plain (rowid, library_id, kind, embedding) SELECT rowid, library_id, kind, embedding FROM passage_vectors');
    db.exec('DROP TABLE passage_vectors');
    db.exec('ALTER TABLE passage_vectors_plain RENAME TO passage_vectors');
  }).immediate();
}

interface HitRow {
  item_id: string; kind: ItemKind; title: string | null; source_ref: string | null; content_date: string;
  ordinal: number; line_start: number; line_end: number; text: string; score: number; metadata: string | null;
}

const toHit = (r: HitRow): PassageHit => ({
  itemId: r.item_id, kind: r.kind, title: r.title, sourceRef: r.source_ref, contentDate: r.content_date, metadata: metadataOf(r.metadata),
  passage: { ordinal: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, text: r.text }, rawScore: r.score,
});

const endUserKey = (ref: LibraryRef) => ref.endUserId ?? '';
const vectorBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

type ShortMemoryRow = ContextMemory & { rowid: number; library_id: number; kind: ItemKind; title: string | null; text: string };

interface VectorChanges {
  added: Array<{ libraryId: number; rowid: number; kind: ItemKind; vector: Float32Array }>;
  removed: Array<{ libraryId: number; rowid: number }>;
}

export class SqliteSearchIndex implements SearchIndex, DeferredVectorIndex {
  private readonly scans: VectorCache;
  private ftsRow?: { remove: Statement<[number]>; insert: Statement<[number, string, string, string, string, string]> };
  private dataVersion = -1;
  /** `name/dimensions` of the embedder this process embeds with, and the data_version it was last found recorded at. */
  private readonly embedder: string;
  private embedderCheckedAt = -1;

  constructor(
    private readonly db: SqliteDatabase,
    private readonly dimensions: number,
    embedderName: string,
    /** The memory the libraries' vector scans may hold (VectorCache); default DEFAULT_VECTOR_CACHE_MB. */
    options: { vectorCacheBytes?: number } = {},
  ) {
    this.scans = new VectorCache(options.vectorCacheBytes ?? DEFAULT_VECTOR_CACHE_MB * 2 ** 20);
    const hadItems = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'items'`).get();
    if (hadItems) {
      const columns = new Set((db.prepare('PRAGMA table_info(items)').all() as Array<{ name: string }>).map((c) => c.name));
      if (!columns.has('generation')) db.exec('ALTER TABLE items ADD COLUMN generation TEXT');
      if (!columns.has('short_memory')) db.exec('ALTER TABLE items ADD COLUMN short_memory INTEGER NOT NULL DEFAULT 0');
      for (const column of ['metadata', 'doc_kind', 'content_type']) if (!columns.has(column)) db.exec(`ALTER TABLE items ADD COLUMN ${column} TEXT`);
      // Documents indexed before filters: their kind and content type come from their records (the same file locally).
      const hasDocuments = !!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'documents'`).get();
      if (!columns.has('doc_kind') && hasDocuments) {
        db.exec(`UPDATE items SET
          doc_kind = (SELECT d.kind FROM documents d WHERE d.id = items.item_id),
          content_type = (SELECT d.content_type FROM documents d WHERE d.id = items.item_id)
          WHERE kind IN ('file_excerpt', 'image')`);
      }
    }
    migrateVec0Vectors(db, dimensions);
    db.exec(schema(dimensions));
    this.embedder = embedderValue({ name: embedderName, dimensions });
    // The folder records the embedder that made its vectors; another one would mix two models' vectors.
    const record = readEmbedderRecord(db);
    if (record.current && record.current !== this.embedder) throw embedderMismatch(record, this.embedder);
    if (!record.current) db.prepare(`INSERT INTO index_meta (key, value) VALUES ('embedder', ?)`).run(this.embedder);
    this.buildItemsFts();
    // Just checked: read the record again only once another connection commits.
    this.embedderCheckedAt = db.pragma('data_version', { simple: true }) as number;
  }

  /**
   * Refuses to read or write vectors once another process (`library reindex`)
   * switched the folder to another embedder: this process's queries and
   * vectors would be of the wrong model. Read only when the file changed.
   * Returns the file's data_version, for callers that also key on it.
   */
  private assertOwnVectors(): number {
    const version = this.db.pragma('data_version', { simple: true }) as number;
    if (version === this.embedderCheckedAt) return version;
    const { current } = readEmbedderRecord(this.db);
    if (current !== this.embedder) {
      throw new BackendUnavailableError(
        `this data folder's vectors were re-embedded by ${current ? describeEmbedder(current) : 'another embedder'} (library reindex) since this server started with ${describeEmbedder(this.embedder)}: restart it with that embedder`,
        30,
      );
    }
    this.embedderCheckedAt = version;
    return version;
  }

  /**
   * Data folders made before items_fts had its context field (or before it
   * existed) get it rebuilt once from the stored texts.
   */
  private buildItemsFts() {
    const sql = this.db.prepare(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'items_fts'`).pluck().get() as string | undefined;
    if (sql?.includes('context')) return;
    this.db.transaction(() => {
      this.db.exec(`DROP TABLE IF EXISTS items_fts; ${ITEMS_FTS}`);
      const items = this.db
        .prepare('SELECT i.rowid, i.kind, (SELECT count(*) FROM passages p WHERE p.item_rowid = i.rowid) AS passages FROM items i')
        .all() as Array<{ rowid: number; kind: ItemKind; passages: number }>;
      const markShort = this.db.prepare('UPDATE items SET short_memory = ? WHERE rowid = ?');
      for (const item of items) markShort.run(isShortMemory({ kind: item.kind, passages: new Array(item.passages) }) ? 1 : 0, item.rowid);
      this.db.exec(`INSERT INTO items_fts (rowid, library, kind, title, body, context)
        SELECT rowid, 'lib' || library_id,
          CASE kind ${Object.entries(KIND_TOKEN).map(([k, t]) => `WHEN '${k}' THEN '${t}'`).join(' ')} END,
          coalesce(title, ''), text, ''
        FROM items WHERE short_memory = 0`);
      for (const libraryId of this.db.prepare('SELECT id FROM index_libraries').pluck().all() as number[]) this.rewriteAllContexts(libraryId);
      // The former backfill's marker: a build of before this one must not fill the table again.
      this.db.prepare(`INSERT OR IGNORE INTO index_meta (key, value) VALUES ('items_fts', '1')`).run();
    }).immediate();
  }

  /** Writes an item's keyword row (replacing any), with its context; its statements are prepared once (it runs in loops). */
  private writeFtsRow(item: { rowid: number; library_id: number; kind: ItemKind; title: string | null; text: string }, context: string) {
    this.ftsRow ??= {
      remove: this.db.prepare('DELETE FROM items_fts WHERE rowid = ?'),
      insert: this.db.prepare('INSERT INTO items_fts (rowid, library, kind, title, body, context) VALUES (?, ?, ?, ?, ?, ?)'),
    };
    this.ftsRow.remove.run(item.rowid);
    this.ftsRow.insert.run(item.rowid, `lib${item.library_id}`, KIND_TOKEN[item.kind], item.title ?? '', item.text, context);
  }

  /**
   * Rewrites the contexts a short memory arriving at or leaving `itemId`'s
   * place in capture order touches (core/memory-context.ts, contextsAround).
   * Call inside a transaction.
   */
  private rewriteContextsAround(libraryId: number, itemId: string) {
    const columns = 'rowid, library_id, kind, title, text, item_id AS itemId';
    const before = this.db
      .prepare(`SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id < ? ORDER BY item_id DESC LIMIT ?`)
      .all(libraryId, itemId, CONTEXT_READ_EACH_SIDE) as ShortMemoryRow[];
    const at = this.db
      .prepare(`SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id = ?`)
      .get(libraryId, itemId) as ShortMemoryRow | undefined;
    const after = this.db
      .prepare(`SELECT ${columns} FROM items WHERE library_id = ? AND short_memory = 1 AND item_id > ? ORDER BY item_id LIMIT ?`)
      .all(libraryId, itemId, CONTEXT_READ_EACH_SIDE) as ShortMemoryRow[];
    for (const { memory, context } of contextsAround(before.reverse(), at ?? null, after)) this.writeFtsRow(memory, context);
  }

  /** Rewrites every short memory's context in a library. Call inside a transaction. */
  private rewriteAllContexts(libraryId: number) {
    const sequence = this.db
      .prepare('SELECT rowid, library_id, kind, title, text, item_id AS itemId FROM items WHERE library_id = ? AND short_memory = 1 ORDER BY item_id')
      .all(libraryId) as ShortMemoryRow[];
    for (const { memory, context } of allContexts(sequence)) this.writeFtsRow(memory, context);
  }

  private libraryId(ref: LibraryRef, create: boolean): number | null {
    const row = this.db
      .prepare('SELECT id FROM index_libraries WHERE tenant_id = ? AND end_user_id = ?')
      .get(ref.tenantId, endUserKey(ref)) as { id: number } | undefined;
    if (row || !create) return row?.id ?? null;
    return Number(
      this.db.prepare('INSERT INTO index_libraries (tenant_id, end_user_id) VALUES (?, ?)').run(ref.tenantId, endUserKey(ref))
        .lastInsertRowid,
    );
  }

  /**
   * Runs a write in one transaction, then applies its vector changes to the
   * in-memory scans (only once it has committed).
   */
  private write<T>(run: (changes: VectorChanges) => T): T {
    const changes: VectorChanges = { added: [], removed: [] };
    const result = this.db.transaction(() => run(changes)).immediate();
    for (const { libraryId, rowid } of changes.removed) this.scans.peek(libraryId)?.remove(rowid);
    for (const { libraryId, rowid, kind, vector } of changes.added) this.scans.peek(libraryId)?.add(rowid, kind, vector);
    if (changes.added.length) this.scans.trim();
    return result;
  }

  /**
   * The library's vectors in memory, loaded from SQLite on first use and
   * kept while the cache's budget allows (VectorCache). Another connection's
   * commit (PRAGMA data_version moves) drops them all, so a second process
   * writing the same file is never missed.
   */
  private scanFor(libraryId: number): VectorScan {
    const version = this.assertOwnVectors();
    if (version !== this.dataVersion) {
      this.scans.clear();
      this.dataVersion = version;
    }
    let scan = this.scans.get(libraryId);
    if (!scan) {
      const count = this.db.prepare('SELECT count(*) FROM passage_vectors WHERE library_id = ?').pluck().get(libraryId) as number;
      scan = new VectorScan(this.dimensions, count);
      const rows = this.db
        .prepare('SELECT rowid, kind, embedding FROM passage_vectors WHERE library_id = ?')
        .iterate(libraryId) as IterableIterator<{ rowid: number; kind: ItemKind; embedding: Buffer }>;
      for (const row of rows) {
        scan.add(row.rowid, row.kind, new Float32Array(Uint8Array.from(row.embedding).buffer)); // a copy: the blob may be unaligned
      }
      this.scans.set(libraryId, scan);
    }
    return scan;
  }

  async put(ref: LibraryRef, item: IndexItem, generation?: string, options: PutOptions = {}): Promise<void> {
    if (item.vectors.length && item.vectors.length !== item.passages.length) throw new Error('one vector per passage, or none yet');
    this.write((changes) => {
      if (item.vectors.length) this.assertOwnVectors();
      // In the same transaction as the write: an erasure that ended this generation stays done.
      if (generation !== undefined && this.db.prepare('SELECT 1 FROM index_ended_generations WHERE generation = ?').get(generation)) {
        throw new LibraryErasedError();
      }
      const libraryId = this.libraryId(ref, true)!;
      const former = this.removeItem(libraryId, item.itemId, changes, false); // a re-put: its window is rewritten below, once
      const shortMemory = isShortMemory(item);
      const itemRowid = Number(
        this.db
          .prepare(
            `INSERT INTO items (item_id, library_id, kind, title, source_ref, content_date, text, generation, short_memory, metadata, doc_kind, content_type)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            item.itemId, libraryId, item.kind, item.title, item.sourceRef, item.contentDate, item.text, generation ?? null, shortMemory ? 1 : 0,
            item.metadata && Object.keys(item.metadata).length ? JSON.stringify(item.metadata) : null, item.documentKind ?? null, item.contentType ?? null,
          )
          .lastInsertRowid,
      );
      if (item.metadata) writeMetadataRows(this.db, METADATA_TABLE, itemRowid, libraryId, item.metadata);
      if (DOCUMENT_KINDS.includes(item.kind)) {
        this.db.prepare('INSERT INTO items_trigram (rowid, text) VALUES (?, ?)').run(itemRowid, item.text);
      }
      if (!shortMemory) this.writeFtsRow({ rowid: itemRowid, library_id: libraryId, kind: item.kind, title: item.title, text: item.text }, '');
      // One rewrite covers this memory arriving and a former version of it leaving.
      if (shortMemory || former?.shortMemory) this.rewriteContextsAround(libraryId, item.itemId);
      const insertPassage = this.db.prepare(
        'INSERT INTO passages (item_rowid, ordinal, line_start, line_end, text) VALUES (?, ?, ?, ?, ?)',
      );
      const insertVector = this.db.prepare('INSERT INTO passage_vectors (rowid, library_id, kind, embedding) VALUES (?, ?, ?, ?)');
      item.passages.forEach((passage, i) => {
        const rowid = insertPassage.run(itemRowid, passage.ordinal, passage.lineStart, passage.lineEnd, passage.text).lastInsertRowid;
        const vector = item.vectors[i];
        if (!vector) return;
        insertVector.run(BigInt(rowid), BigInt(libraryId), item.kind, vectorBlob(vector));
        changes.added.push({ libraryId, rowid: Number(rowid), kind: item.kind, vector });
      });
      // A replacement: the older versions leave in the same transaction the new one arrives in.
      for (const replaced of options.replaces ?? []) if (replaced !== item.itemId) this.removeItem(libraryId, replaced, changes);
    });
  }

  async itemsWithoutVectors(): Promise<Array<{ ref: LibraryRef; itemId: string; texts: string[] }>> {
    // Memory (chat, creation) only: documents without vectors are the ingestion queue's to finish.
    const rows = this.db
      .prepare(
        `SELECT i.item_id, l.tenant_id, l.end_user_id, p.text FROM items i
         JOIN index_libraries l ON l.id = i.library_id
         JOIN passages p ON p.item_rowid = i.rowid
         WHERE i.kind IN ('chat', 'creation')
           AND EXISTS (SELECT 1 FROM passages q WHERE q.item_rowid = i.rowid
                       AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.rowid = q.rowid))
         ORDER BY i.rowid, p.ordinal`,
      )
      .all() as Array<{ item_id: string; tenant_id: string; end_user_id: string; text: string }>;
    const items = new Map<string, { ref: LibraryRef; itemId: string; texts: string[] }>();
    for (const row of rows) {
      const item = items.get(row.item_id) ?? { ref: { tenantId: row.tenant_id, endUserId: row.end_user_id || null }, itemId: row.item_id, texts: [] };
      item.texts.push(row.text);
      items.set(row.item_id, item);
    }
    return [...items.values()];
  }

  async passagesWithoutVectors(ref: LibraryRef, itemId: string, options: { limit: number; skip?: ReadonlySet<number> }): Promise<Passage[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    const skip = options.skip?.size ? [...options.skip] : [];
    const rows = this.db
      .prepare(
        `SELECT p.ordinal, p.line_start, p.line_end, p.text FROM items i CROSS JOIN passages p ON p.item_rowid = i.rowid
         WHERE i.item_id = ? AND i.library_id = ?
           AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.rowid = p.rowid)
           AND p.ordinal NOT IN (SELECT value FROM json_each(?))
         ORDER BY p.ordinal LIMIT ?`,
      )
      .all(itemId, libraryId, JSON.stringify(skip), options.limit) as Array<{ ordinal: number; line_start: number; line_end: number; text: string }>;
    return rows.map((r) => ({ ordinal: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, text: r.text }));
  }

  async attachPassageVectors(ref: LibraryRef, itemId: string, vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>): Promise<boolean> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return false;
    return this.write((changes) => {
      this.assertOwnVectors();
      const item = this.db.prepare('SELECT rowid, kind FROM items WHERE item_id = ? AND library_id = ?').get(itemId, libraryId) as
        | { rowid: number; kind: ItemKind }
        | undefined;
      if (!item) return false;
      const passageRowid = this.db.prepare('SELECT rowid FROM passages WHERE item_rowid = ? AND ordinal = ?').pluck();
      const deleteVector = this.db.prepare('DELETE FROM passage_vectors WHERE rowid = ?');
      const insertVector = this.db.prepare('INSERT INTO passage_vectors (rowid, library_id, kind, embedding) VALUES (?, ?, ?, ?)');
      for (const { ordinal, vector } of vectors) {
        const rowid = passageRowid.get(item.rowid, ordinal) as number | undefined;
        if (rowid === undefined) throw new Error(`item ${itemId} has no passage ${ordinal}`);
        deleteVector.run(BigInt(rowid)); // attaching twice replaces
        insertVector.run(BigInt(rowid), BigInt(libraryId), item.kind, vectorBlob(vector));
        changes.added.push({ libraryId, rowid, kind: item.kind, vector });
      }
      return true;
    });
  }

  /**
   * Deletes one item and everything derived from it, and rewrites its
   * neighbours' contexts without it (unless `rewriteContexts` is false: the
   * caller does it). Returns what it removed (null: nothing); call inside a transaction.
   */
  private removeItem(libraryId: number, itemId: string, changes: VectorChanges, rewriteContexts = true): { shortMemory: boolean } | null {
    const item = this.db.prepare('SELECT rowid, short_memory FROM items WHERE item_id = ? AND library_id = ?').get(itemId, libraryId) as
      | { rowid: number; short_memory: number }
      | undefined;
    if (!item) return null;
    const passageRowids = this.db.prepare('SELECT rowid FROM passages WHERE item_rowid = ?').pluck().all(item.rowid) as number[];
    const deleteVector = this.db.prepare('DELETE FROM passage_vectors WHERE rowid = ?');
    const deleteReindexed = this.db.prepare('DELETE FROM reindex_vectors WHERE rowid = ?');
    for (const rowid of passageRowids) {
      deleteVector.run(BigInt(rowid));
      deleteReindexed.run(rowid); // nothing of a removed item waits in an unfinished reindex either
      changes.removed.push({ libraryId, rowid });
    }
    this.db.prepare('DELETE FROM passages WHERE item_rowid = ?').run(item.rowid);
    this.db.prepare('DELETE FROM items_trigram WHERE rowid = ?').run(item.rowid);
    this.db.prepare('DELETE FROM items_fts WHERE rowid = ?').run(item.rowid);
    this.db.prepare('DELETE FROM items WHERE rowid = ?').run(item.rowid);
    deleteMetadataRows(this.db, METADATA_TABLE, item.rowid);
    if (item.short_memory && rewriteContexts) this.rewriteContextsAround(libraryId, itemId);
    return { shortMemory: item.short_memory === 1 };
  }

  async remove(ref: LibraryRef, itemId: string): Promise<void> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    this.write((changes) => this.removeItem(libraryId, itemId, changes));
  }

  async removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>> {
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    const dropped = this.write((changes) => {
      // The generation ends first, in the same transaction: no put under it lands after this.
      if (generation) this.db.prepare('INSERT OR IGNORE INTO index_ended_generations (generation) VALUES (?)').run(generation);
      const libraryId = this.libraryId(ref, false);
      if (libraryId === null) return null;
      // Which items: all (no generation named), those of the generation and untagged ones, or (null) those of no live generation.
      const which =
        generation === undefined ? '' :
        generation === null ? ' AND (generation IS NULL OR generation IN (SELECT generation FROM index_ended_generations))' :
        ' AND (generation IS NULL OR generation = ?)';
      const items = this.db
        .prepare(`SELECT item_id, kind, short_memory FROM items WHERE library_id = ?${which}`)
        .all(...(generation ? [libraryId, generation] : [libraryId])) as Array<{ item_id: string; kind: ItemKind; short_memory: number }>;
      for (const item of items) if (this.removeItem(libraryId, item.item_id, changes, false)) counts[item.kind] += 1;
      // The library's row goes with its last item (a newer generation may already hold some: when short
      // memories left, their contexts are rewritten without them).
      if (this.db.prepare('SELECT 1 FROM items WHERE library_id = ? LIMIT 1').get(libraryId)) {
        if (items.some((item) => item.short_memory)) this.rewriteAllContexts(libraryId);
        return null;
      }
      this.db.prepare('DELETE FROM index_libraries WHERE id = ?').run(libraryId);
      return libraryId;
    });
    if (dropped !== null) this.scans.delete(dropped);
    return counts;
  }

  /**
   * Makes removed text unrecoverable from the files: the FTS5 indexes are
   * optimized (their segments rewritten, so deleted rows' tokens are gone;
   * contentless_delete only marks them), and the WAL is checkpointed and
   * truncated (old page images hold the deleted text). With secure_delete
   * (database.ts) the freed pages are zeroed.
   */
  async scrub(): Promise<void> {
    this.db.transaction(() => {
      this.db.prepare(`INSERT INTO items_fts (items_fts) VALUES ('optimize')`).run();
      this.db.prepare(`INSERT INTO items_trigram (items_trigram) VALUES ('optimize')`).run();
    }).immediate();
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    const terms = keywordMatchExpression(query.text);
    if (libraryId === null || !terms) return [];
    // Every item has one of the kinds: without a filter the kind clause would only cost time.
    const kinds = query.kinds?.length && ITEM_KINDS.some((k) => !query.kinds!.includes(k)) ? query.kinds : null;
    const kindClause = kinds ? `kind : (${kinds.map((k) => KIND_TOKEN[k]).join(' OR ')}) AND ` : '';
    const match = `library : ${quoteTerm(`lib${libraryId}`)} AND ${kindClause}${terms}`;
    type RankedRow = Omit<HitRow, 'ordinal' | 'line_start' | 'line_end' | 'text'> & { item_rowid: number; kept: number };
    /** The leg's best items: `inside` filters within the ranking (before its LIMIT); `kept` says whether each row matches `marked`. */
    const ranked = (limit: number, filter?: { inside?: CompiledFilter; marked?: CompiledFilter }) => {
      const { inside, marked } = filter ?? {};
      // `+rowid`: SQLite would otherwise hand the IN list to FTS5 as rowid lookups, one full-text match per
      // matching item (a 50% filter over 30k documents took 75 s); as written, the match runs once and is filtered.
      const insideClause = inside ? ` AND +rowid IN (SELECT i.rowid FROM items i WHERE i.library_id = ? AND ${inside.sql})` : '';
      return this.db
        .prepare(
          `WITH ranked AS (
             SELECT rowid, -bm25(items_fts, 0, 0, ${TITLE_WEIGHT}, 1, ${MEMORY_CONTEXT.weight}) AS score
             FROM items_fts WHERE items_fts MATCH ?${insideClause} ORDER BY score DESC LIMIT ?
           )
           SELECT i.rowid AS item_rowid, i.item_id, i.kind, i.title, i.source_ref, i.content_date, i.metadata, r.score,
                  ${marked ? marked.sql : '1'} AS kept
           FROM ranked r CROSS JOIN items i ON i.rowid = r.rowid
           WHERE i.library_id = ? AND ${IN_GENERATION}
           ORDER BY r.score DESC, i.rowid`,
        )
        .all(match, ...(inside ? [libraryId, ...inside.params] : []), limit, ...(marked?.params ?? []), libraryId, ...generationParams(query.generation)) as RankedRow[];
    };
    let items: RankedRow[];
    if (!query.filter) {
      items = ranked(query.limit);
    } else {
      // A broad filter: the wider unfiltered top, each row checked; enough matches there are the leg's best (WIDER_FIRST).
      const wider = query.limit * WIDER_FIRST;
      const candidates = this.filterShare(libraryId, query.filter) >= WIDER_FIRST_SHARE ? ranked(wider, { marked: itemFilter(query.filter, libraryId, 'row') }) : null;
      const kept = candidates?.filter((row) => row.kept) ?? [];
      items = candidates && (kept.length >= query.limit || candidates.length < wider)
        ? kept.slice(0, query.limit)
        : ranked(query.limit, { inside: itemFilter(query.filter, libraryId) });
    }
    if (!items.length) return [];
    const best = this.bestPassages(items.map((i) => i.item_rowid), query.text);
    // The same terms the match expression holds (at most MAX_QUERY_TERMS: one lookup each).
    const coverage = this.coverage(libraryId, keywordTerms(query.text));
    return items.flatMap((item) => {
      const passage = best.get(item.item_rowid);
      const share = coverage(item.item_rowid);
      // A hit that holds none of the terms itself was found through its neighbours' words.
      return passage ? [{ ...toHit({ ...item, ...passage }), coverage: share, ...(share === 0 ? { viaContext: true } : {}) }] : [];
    });
  }

  /**
   * Each item's share of the query's term weight (core/keyword-coverage.ts),
   * with the terms' rarity in this library: one FTS5 lookup per term gives the
   * items holding it, stemmed exactly as BM25 matched them.
   */
  private coverage(libraryId: number, terms: readonly string[]) {
    const documents = (this.db.prepare('SELECT count(*) AS n FROM items WHERE library_id = ?').get(libraryId) as { n: number }).n;
    const holding = this.db.prepare('SELECT rowid FROM items_fts WHERE items_fts MATCH ?').pluck();
    const library = `library : ${quoteTerm(`lib${libraryId}`)}`;
    const termItems = terms.map((term) => new Set(holding.all(`${library} AND {title body} : ${quoteTerm(term)}`) as number[]));
    return coverageOf(documents, termItems);
  }

  /**
   * The passage to show for each item: among the first BEST_PASSAGE_ITEMS
   * items, the one sharing the most query words (see bestPassage); deeper
   * items show their first passage, which holds the title (reading every
   * passage of 200 items cost more than the full-text query itself).
   */
  private bestPassages(itemRowids: number[], text: string) {
    type PassageRow = Pick<HitRow, 'ordinal' | 'line_start' | 'line_end' | 'text'> & { item_rowid: number };
    const top = itemRowids.slice(0, BEST_PASSAGE_ITEMS);
    const rows = this.db
      .prepare(
        `SELECT item_rowid, ordinal, line_start, line_end, text FROM passages
         WHERE item_rowid IN (SELECT value FROM json_each(?)) AND (ordinal = 0 OR item_rowid IN (SELECT value FROM json_each(?)))
         ORDER BY item_rowid, ordinal`,
      )
      .all(JSON.stringify(itemRowids), JSON.stringify(top)) as PassageRow[];
    const byItem = new Map<number, PassageRow[]>();
    for (const row of rows) (byItem.get(row.item_rowid) ?? byItem.set(row.item_rowid, []).get(row.item_rowid)!).push(row);
    const words = keywordTerms(text);
    const best = new Map<number, PassageRow>();
    for (const [itemRowid, passages] of byItem) {
      best.set(itemRowid, passages.length > 1 ? passages[bestPassage(words, passages.map((p) => p.text))]! : passages[0]!);
    }
    return best;
  }

  async vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    // Filtering by kind inside the scan means a rare kind is never crowded out; a filter is read as in
    // keywordSearch: the wider unfiltered nearest, kept when enough match, else the scan of its matches alone.
    const scan = this.scanFor(libraryId);
    let nearest: ScanHit[];
    if (!query.filter) {
      nearest = scan.search(query.vector, query.limit, query.kinds);
    } else {
      const wider = query.limit * WIDER_FIRST;
      const candidates = this.filterShare(libraryId, query.filter) >= WIDER_FIRST_SHARE ? scan.search(query.vector, wider, query.kinds) : null;
      const matching = candidates ? this.candidatesMatching(candidates.map((c) => c.rowid), query.filter) : new Set<number>();
      const kept = candidates?.filter((c) => matching.has(c.rowid)) ?? [];
      nearest = candidates && (kept.length >= query.limit || candidates.length < wider)
        ? kept.slice(0, query.limit)
        : scan.search(query.vector, query.limit, query.kinds, this.passagesMatching(libraryId, query.filter));
    }
    if (!nearest.length) return [];
    const rows = this.db
      .prepare(
        `SELECT p.rowid AS passage_rowid, i.item_id, i.kind, i.title, i.source_ref, i.content_date, i.metadata,
                p.ordinal, p.line_start, p.line_end, p.text, 0 AS score
         FROM json_each(?) n CROSS JOIN passages p ON p.rowid = n.value CROSS JOIN items i ON i.rowid = p.item_rowid
         WHERE i.library_id = ? AND ${IN_GENERATION}`,
      )
      .all(JSON.stringify(nearest.map((n) => n.rowid)), libraryId, ...generationParams(query.generation)) as Array<HitRow & { passage_rowid: number }>;
    const byRowid = new Map(rows.map((r) => [r.passage_rowid, r]));
    return nearest.flatMap((n) => {
      const row = byRowid.get(n.rowid);
      return row ? [toHit({ ...row, score: n.score })] : [];
    });
  }

  /** The share of a library's items a filter keeps, estimated on its newest FILTER_SAMPLE items (row by row). */
  private filterShare(libraryId: number, filter: Filter): number {
    const compiled = itemFilter(filter, libraryId, 'row');
    const { n, kept } = this.db
      .prepare(
        `SELECT count(*) AS n, coalesce(sum(${compiled.sql}), 0) AS kept FROM (
           SELECT rowid, kind, doc_kind, title, source_ref, content_type, content_date FROM items
           WHERE library_id = ? ORDER BY content_date DESC, item_id DESC LIMIT ${FILTER_SAMPLE}
         ) i`,
      )
      .get(...compiled.params, libraryId) as { n: number; kept: number };
    return n ? kept / n : 0;
  }

  /** Which of these passages (vector rowids) belong to items that match the filter, looked up row by row. */
  private candidatesMatching(passageRowids: readonly number[], filter: Filter): Set<number> {
    if (!passageRowids.length) return new Set();
    const compiled = itemFilter(filter, 0, 'row');
    const rowids = this.db
      .prepare(
        `SELECT p.rowid FROM json_each(?) n CROSS JOIN passages p ON p.rowid = n.value CROSS JOIN items i ON i.rowid = p.item_rowid
         WHERE ${compiled.sql}`,
      )
      .pluck()
      .all(JSON.stringify(passageRowids), ...compiled.params) as number[];
    return new Set(rowids);
  }

  /** The passages (vector rowids) of a library's items that match a filter, through the metadata table's indexes. */
  private passagesMatching(libraryId: number, filter: Filter): Set<number> {
    const compiled = itemFilter(filter, libraryId);
    const rowids = this.db
      .prepare(`SELECT p.rowid FROM items i CROSS JOIN passages p ON p.item_rowid = i.rowid WHERE i.library_id = ? AND ${compiled.sql}`)
      .pluck()
      .all(libraryId, ...compiled.params) as number[];
    return new Set(rowids);
  }

  async updateItem(ref: LibraryRef, itemId: string, changes: DocumentChanges): Promise<boolean> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return false;
    return this.write(() => {
      const item = this.db
        .prepare('SELECT rowid, library_id, kind, title, source_ref, text, short_memory, metadata FROM items WHERE item_id = ? AND library_id = ?')
        .get(itemId, libraryId) as
        | { rowid: number; library_id: number; kind: ItemKind; title: string | null; source_ref: string | null; text: string; short_memory: number; metadata: string | null }
        | undefined;
      if (!item) return false;
      const title = changes.title ?? item.title;
      const sourceRef = changes.sourceRef === undefined ? item.source_ref : changes.sourceRef;
      const metadata = changes.metadata ?? metadataOf(item.metadata);
      this.db
        .prepare('UPDATE items SET title = ?, source_ref = ?, metadata = ? WHERE rowid = ?')
        .run(title, sourceRef, Object.keys(metadata).length ? JSON.stringify(metadata) : null, item.rowid);
      if (changes.metadata) writeMetadataRows(this.db, METADATA_TABLE, item.rowid, libraryId, metadata);
      // The title is in the keyword row: a new one is found by its words at once.
      if (changes.title !== undefined && changes.title !== item.title) {
        if (item.short_memory) this.rewriteContextsAround(libraryId, itemId);
        else this.writeFtsRow({ rowid: item.rowid, library_id: libraryId, kind: item.kind, title, text: item.text }, '');
      }
      return true;
    });
  }

  async documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return null;
    const row = this.db
      .prepare(`SELECT text FROM items i WHERE library_id = ? AND item_id = ? AND ${DOCUMENTS_ONLY} AND ${IN_GENERATION}`)
      .get(libraryId, itemId, ...generationParams(generation)) as
      | { text: string }
      | undefined;
    return row?.text ?? null;
  }

  /**
   * Keyset pages of documents' metadata (GREP_BATCH), then each document's text
   * read alone as the caller asks for it: a synchronous read never holds more
   * than one text (a page of large extracted texts read at once could be
   * gigabytes), and nothing is read past where the caller's budget stops it.
   */
  async *grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    const where = ['library_id = ?', DOCUMENTS_ONLY, IN_GENERATION];
    const params: unknown[] = [libraryId, ...generationParams(scan.generation)];
    if (scan.itemId) {
      where.push('item_id = ?');
      params.push(scan.itemId);
    }
    if (scan.filter) {
      const filter = itemFilter(scan.filter, libraryId);
      where.push(filter.sql);
      params.push(...filter.params);
    }
    if (canUseTrigrams(scan)) {
      where.push('rowid IN (SELECT rowid FROM items_trigram WHERE items_trigram MATCH ?)');
      params.push(quoteTerm(scan.pattern));
    }
    const pageFrom = (comparison: '<=' | '<') => this.db.prepare(
      `SELECT rowid, item_id, title, source_ref, content_date, metadata FROM items i
       WHERE ${where.join(' AND ')} AND (content_date, item_id) ${comparison} (?, ?)
       ORDER BY content_date DESC, item_id DESC LIMIT ?`,
    );
    const pages = { inclusive: pageFrom('<='), exclusive: pageFrom('<') };
    const textOf = this.db.prepare('SELECT text FROM items WHERE rowid = ? AND item_id = ?').pluck();
    // Read in small pages (keyset), never holding a cursor open across an await.
    let inclusive = !scan.startAfter;
    let position = scan.startAt ?? scan.startAfter ?? { createdAt: '\uffff', id: '\uffff' };
    for (let batch = GREP_BATCH.first; ; batch = Math.min(batch * GREP_BATCH.growth, GREP_BATCH.most)) {
      const rows = pages[inclusive ? 'inclusive' : 'exclusive'].all(...params, position.createdAt, position.id, batch) as Array<{
        rowid: number; item_id: string; title: string | null; source_ref: string | null; content_date: string; metadata: string | null;
      }>;
      for (const r of rows) {
        const text = textOf.get(r.rowid, r.item_id) as string | undefined;
        // Removed since its page was read: it is no longer in the library.
        if (text === undefined) continue;
        yield { itemId: r.item_id, title: r.title, sourceRef: r.source_ref, contentDate: r.content_date, text, metadata: metadataOf(r.metadata) };
      }
      if (rows.length < batch) return;
      const last = rows[rows.length - 1]!;
      position = { createdAt: last.content_date, id: last.item_id };
      inclusive = false;
    }
  }
}

/**
 * The trigram index finds any substring of at least three characters. Its
 * case folding may differ from JavaScript's outside ASCII, so a
 * case-insensitive pattern with other characters scans instead: grep stays
 * exhaustive.
 */
function canUseTrigrams(scan: GrepScan): boolean {
  if ([...scan.pattern].length < 3) return false;
  return scan.caseSensitive || /^[\x20-\x7e]*$/.test(scan.pattern);
}
