import type { GrepScan, KeywordQuery, SearchIndex, VectorQuery } from '../../ports.js';
import type { GrepCandidate, IndexItem, ItemKind, LibraryRef, PassageHit } from '../../core/model.js';
import { ITEM_KINDS } from '../../core/model.js';
import type { SqliteDatabase } from './database.js';
import { keywordMatchExpression, quoteTerm } from './fts-query.js';

/**
 * The search index on SQLite: passages with FTS5 (Porter-stemmed BM25 with a
 * title field), their vectors in a sqlite-vec table partitioned by library
 * (exact k-NN, cosine), and each document's whole text under an FTS5 trigram
 * index that narrows literal grep to the documents that can match.
 *
 * Every query is restricted to one library: the FTS5 rows carry a library
 * token that every keyword query must match, and vector queries name the
 * library partition.
 */
const KIND_TOKEN: Record<ItemKind, string> = { file_excerpt: 'kfile', image: 'kimage', chat: 'kchat', creation: 'kcreation' };
const DOCUMENT_KINDS: readonly ItemKind[] = ['file_excerpt', 'image'];
/** Title matches count this much more than body matches in BM25. */
const TITLE_WEIGHT = 2;
/** Documents read per step of a grep scan. */
const GREP_BATCH = 64;

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
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS items_newest ON items(library_id, content_date DESC, item_id DESC);
CREATE TABLE IF NOT EXISTS passages (
  rowid INTEGER PRIMARY KEY,
  item_rowid INTEGER NOT NULL REFERENCES items(rowid),
  ordinal INTEGER NOT NULL,
  line_start INTEGER NOT NULL,
  line_end INTEGER NOT NULL,
  text TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS passages_item ON passages(item_rowid);
CREATE VIRTUAL TABLE IF NOT EXISTS passages_fts USING fts5(
  library, kind, title, body, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE IF NOT EXISTS items_trigram USING fts5(text, content='', contentless_delete=1, tokenize='trigram');
CREATE VIRTUAL TABLE IF NOT EXISTS passage_vectors USING vec0(
  library_id INTEGER PARTITION KEY,
  kind TEXT,
  embedding FLOAT[${dimensions}] distance_metric=cosine
);
`;

interface HitRow {
  item_id: string; kind: ItemKind; title: string | null; source_ref: string | null; content_date: string;
  ordinal: number; line_start: number; line_end: number; text: string; score: number;
}

const toHit = (r: HitRow): PassageHit => ({
  itemId: r.item_id, kind: r.kind, title: r.title, sourceRef: r.source_ref, contentDate: r.content_date,
  passage: { ordinal: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, text: r.text }, rawScore: r.score,
});

const endUserKey = (ref: LibraryRef) => ref.endUserId ?? '';
const vectorBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

export class SqliteSearchIndex implements SearchIndex {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly dimensions: number,
    embedderName: string,
  ) {
    db.exec(schema(dimensions));
    const stored = db.prepare(`SELECT value FROM index_meta WHERE key = 'embedder'`).get() as { value: string } | undefined;
    const current = `${embedderName}/${dimensions}`;
    if (stored && stored.value !== current) {
      throw new Error(`the index was built with embedder ${stored.value}, not ${current}: use the same embedder or a new data directory`);
    }
    if (!stored) db.prepare(`INSERT INTO index_meta (key, value) VALUES ('embedder', ?)`).run(current);
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

  async put(ref: LibraryRef, item: IndexItem): Promise<void> {
    if (item.vectors.length !== item.passages.length) throw new Error('one vector per passage');
    this.db.transaction(() => {
      const libraryId = this.libraryId(ref, true)!;
      this.removeItem(libraryId, item.itemId);
      const itemRowid = this.db
        .prepare(
          `INSERT INTO items (item_id, library_id, kind, title, source_ref, content_date, text) VALUES (?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(item.itemId, libraryId, item.kind, item.title, item.sourceRef, item.contentDate, item.text).lastInsertRowid;
      if (DOCUMENT_KINDS.includes(item.kind)) {
        this.db.prepare('INSERT INTO items_trigram (rowid, text) VALUES (?, ?)').run(itemRowid, item.text);
      }
      const insertPassage = this.db.prepare(
        'INSERT INTO passages (item_rowid, ordinal, line_start, line_end, text) VALUES (?, ?, ?, ?, ?)',
      );
      const insertFts = this.db.prepare('INSERT INTO passages_fts (rowid, library, kind, title, body) VALUES (?, ?, ?, ?, ?)');
      const insertVector = this.db.prepare('INSERT INTO passage_vectors (rowid, library_id, kind, embedding) VALUES (?, ?, ?, ?)');
      item.passages.forEach((passage, i) => {
        const rowid = insertPassage.run(itemRowid, passage.ordinal, passage.lineStart, passage.lineEnd, passage.text).lastInsertRowid;
        insertFts.run(rowid, `lib${libraryId}`, KIND_TOKEN[item.kind], item.title ?? '', passage.text);
        insertVector.run(BigInt(rowid), BigInt(libraryId), item.kind, vectorBlob(item.vectors[i]!));
      });
    }).immediate();
  }

  /** Deletes one item and everything derived from it; call inside a transaction. */
  private removeItem(libraryId: number, itemId: string): boolean {
    const item = this.db.prepare('SELECT rowid FROM items WHERE item_id = ? AND library_id = ?').get(itemId, libraryId) as
      | { rowid: number }
      | undefined;
    if (!item) return false;
    const passageRowids = this.db.prepare('SELECT rowid FROM passages WHERE item_rowid = ?').pluck().all(item.rowid) as number[];
    const deleteFts = this.db.prepare('DELETE FROM passages_fts WHERE rowid = ?');
    const deleteVector = this.db.prepare('DELETE FROM passage_vectors WHERE rowid = ?');
    for (const rowid of passageRowids) {
      deleteFts.run(rowid);
      deleteVector.run(BigInt(rowid));
    }
    this.db.prepare('DELETE FROM passages WHERE item_rowid = ?').run(item.rowid);
    this.db.prepare('DELETE FROM items_trigram WHERE rowid = ?').run(item.rowid);
    this.db.prepare('DELETE FROM items WHERE rowid = ?').run(item.rowid);
    return true;
  }

  async remove(ref: LibraryRef, itemId: string): Promise<void> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    this.db.transaction(() => this.removeItem(libraryId, itemId)).immediate();
  }

  async removeLibrary(ref: LibraryRef): Promise<Record<ItemKind, number>> {
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return counts;
    this.db.transaction(() => {
      const items = this.db.prepare('SELECT item_id, kind FROM items WHERE library_id = ?').all(libraryId) as Array<{
        item_id: string; kind: ItemKind;
      }>;
      for (const item of items) if (this.removeItem(libraryId, item.item_id)) counts[item.kind] += 1;
      this.db.prepare('DELETE FROM index_libraries WHERE id = ?').run(libraryId);
    }).immediate();
    return counts;
  }

  async keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    const terms = keywordMatchExpression(query.text);
    if (libraryId === null || !terms) return [];
    const kinds = query.kinds?.length ? query.kinds : ITEM_KINDS;
    const match = `library : ${quoteTerm(`lib${libraryId}`)} AND kind : (${kinds.map((k) => KIND_TOKEN[k]).join(' OR ')}) AND ${terms}`;
    const rows = this.db
      .prepare(
        `WITH ranked AS (
           SELECT rowid, -bm25(passages_fts, 0, 0, ${TITLE_WEIGHT}, 1) AS score
           FROM passages_fts WHERE passages_fts MATCH ? ORDER BY score DESC LIMIT ?
         )
         SELECT i.item_id, i.kind, i.title, i.source_ref, i.content_date, p.ordinal, p.line_start, p.line_end, p.text, r.score
         FROM ranked r JOIN passages p ON p.rowid = r.rowid JOIN items i ON i.rowid = p.item_rowid
         WHERE i.library_id = ?
         ORDER BY r.score DESC, p.rowid`,
      )
      .all(match, query.limit, libraryId) as HitRow[];
    return rows.map(toHit);
  }

  async vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    const knn = (kind: ItemKind | null) =>
      this.db
        .prepare(
          `WITH nearest AS (
             SELECT rowid, distance FROM passage_vectors
             WHERE embedding MATCH ? AND k = ? AND library_id = ? ${kind ? 'AND kind = ?' : ''}
           )
           SELECT i.item_id, i.kind, i.title, i.source_ref, i.content_date, p.ordinal, p.line_start, p.line_end, p.text,
                  1 - n.distance AS score
           FROM nearest n JOIN passages p ON p.rowid = n.rowid JOIN items i ON i.rowid = p.item_rowid
           WHERE i.library_id = ?
           ORDER BY n.distance, p.rowid`,
        )
        .all(vectorBlob(query.vector), query.limit, BigInt(libraryId), ...(kind ? [kind] : []), libraryId) as HitRow[];
    // A kind filter runs one exact k-NN per kind, so a rare kind is never crowded out.
    const rows = query.kinds?.length && query.kinds.length < ITEM_KINDS.length
      ? query.kinds.flatMap((kind) => knn(kind)).sort((a, b) => b.score - a.score).slice(0, query.limit)
      : knn(null);
    return rows.map(toHit);
  }

  async *grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    const where = ['library_id = ?', `kind IN ('file_excerpt', 'image')`];
    const params: unknown[] = [libraryId];
    if (scan.itemId) {
      where.push('item_id = ?');
      params.push(scan.itemId);
    }
    if (canUseTrigrams(scan)) {
      where.push('rowid IN (SELECT rowid FROM items_trigram WHERE items_trigram MATCH ?)');
      params.push(quoteTerm(scan.pattern));
    }
    const page = this.db.prepare(
      `SELECT item_id, title, source_ref, content_date, text FROM items
       WHERE ${where.join(' AND ')} AND (content_date, item_id) <= (?, ?)
       ORDER BY content_date DESC, item_id DESC LIMIT ?`,
    );
    // Read in small pages (keyset), never holding a cursor open across an await.
    let position = scan.startAt ?? { createdAt: '\uffff', id: '\uffff' };
    let first = true;
    for (;;) {
      const rows = page.all(...params, position.createdAt, position.id, GREP_BATCH + 1) as Array<{
        item_id: string; title: string | null; source_ref: string | null; content_date: string; text: string;
      }>;
      const fresh = first ? rows : rows.slice(1); // after the first page, the first row was already yielded
      first = false;
      for (const r of fresh) {
        yield { itemId: r.item_id, title: r.title, sourceRef: r.source_ref, contentDate: r.content_date, text: r.text };
      }
      if (rows.length < GREP_BATCH + 1) return;
      const last = rows[rows.length - 1]!;
      position = { createdAt: last.content_date, id: last.item_id };
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
