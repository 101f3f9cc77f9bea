import { setImmediate as nextTurn } from 'node:timers/promises';
import { BackendUnavailableError, LibraryErasedError } from '../../core/errors.js';
import { isShortMemory } from '../../core/memory-context.js';
import type {
  DocumentChanges,
  GrepCandidate,
  IndexItem,
  ItemKind,
  LibraryRef,
  Passage,
  PassageHit,
} from '../../core/model.js';
import { DOCUMENT_KINDS, ITEM_KINDS } from '../../core/model.js';
import type {
  DeferredVectorIndex,
  GrepScan,
  KeywordQuery,
  PutOptions,
  SearchIndex,
  VectorQuery,
} from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import { describeEmbedder, embedderMismatch, embedderValue, readEmbedderRecord } from './embedder-record.js';
import { countKeywordWrite } from './keyword-writes.js';
import { SegmentMerges } from './segment-merges.js';
import { deleteMetadataRows, metadataOf, writeMetadataRows } from './sqlite-filter.js';
import { grepScan } from './sqlite-grep-scan.js';
import { buildItemsFts, openIndexSchema } from './sqlite-index-schema.js';
import { DOCUMENTS_ONLY, generationParams, IN_GENERATION, METADATA_TABLE } from './sqlite-index-sql.js';
import { MemoryContextRows } from './sqlite-memory-contexts.js';
import { type SearchLegs, SqliteSearchLegs } from './sqlite-search-legs.js';
import { TrigramBacklog } from './sqlite-trigram-backlog.js';
import type { VectorChanges } from './vector-cache.js';
import { countVectorWrite, readVectorWrites } from './vector-writes.js';

const endUserKey = (ref: LibraryRef) => ref.endUserId ?? '';
const vectorBlob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);

/** What an erasure removes per transaction: at most this many items, and about this much text (one item at least). */
const ERASE_STEP = { items: 200, bytes: 1024 * 1024 };

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
 *
 * This module keeps the writes (put, vectors attached later, removals,
 * updates, scrub) and the checks they share with the vector leg (library
 * ids, the embedder that made the vectors), and composes the rest, each in
 * a module of its own beside it: the tables and their migrations
 * (sqlite-index-schema.ts), the items' keyword rows with the short
 * memories' contexts (sqlite-memory-contexts.ts), the keyword leg
 * (sqlite-keyword-leg.ts), the vector leg (sqlite-vector-leg.ts), the grep
 * scan (sqlite-grep-scan.ts), the short texts on their way into the trigram
 * index (sqlite-trigram-backlog.ts), and what they share (sqlite-index-sql.ts,
 * sqlite-wider-first.ts).
 */
export class SqliteSearchIndex implements SearchIndex, DeferredVectorIndex {
  private readonly contexts: MemoryContextRows;
  /** Documents' texts on their way into the trigram index, a group at a time. */
  private readonly trigrams: TrigramBacklog;
  /** Where the two legs run, and the vector scans they keep. */
  private readonly legs: SearchLegs;
  /** The full-text indexes' segments, merged once writes pause. */
  private readonly merges: SegmentMerges;
  /** The data_version the legs' cached scans were last known current at (another connection's commit moves it). */
  private legsVersion = -1;
  /** The folder's count of vector writes the legs' cached scans are current with (vector-writes.ts). */
  private vectorWritesSeen = -1;
  /** `name/dimensions` of the embedder this process embeds with, and the data_version it was last found recorded at. */
  private readonly embedder: string;
  private embedderCheckedAt = -1;

  constructor(
    private readonly db: SqliteDatabase,
    dimensions: number,
    embedderName: string,
    options: {
      /** The memory the libraries' vector scans may hold, for the legs made here (SqliteSearchLegs' default when absent). */
      vectorCacheBytes?: number;
      /** The legs elsewhere: each in a thread of its own (SearchThreads); absent, on this thread over `db`. */
      legs?: SearchLegs;
    } = {},
  ) {
    this.legs = options.legs ?? new SqliteSearchLegs(db, dimensions, options.vectorCacheBytes);
    this.contexts = new MemoryContextRows(db);
    openIndexSchema(db, dimensions);
    this.trigrams = new TrigramBacklog(db);
    this.merges = new SegmentMerges(db);
    // Segments an earlier process left (a bulk fill, a stop before its merge) are merged once this one is quiet too.
    this.merges.wrote();
    this.embedder = embedderValue({ name: embedderName, dimensions });
    // The folder records the embedder that made its vectors; another one would mix two models' vectors.
    const record = readEmbedderRecord(db);
    if (record.current && record.current !== this.embedder) throw embedderMismatch(record, this.embedder);
    if (!record.current) db.prepare(`INSERT INTO index_meta (key, value) VALUES ('embedder', ?)`).run(this.embedder);
    buildItemsFts(db, this.contexts);
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

  private libraryId(ref: LibraryRef, create: boolean): number | null {
    const row = this.db
      .prepare('SELECT id FROM index_libraries WHERE tenant_id = ? AND end_user_id = ?')
      .get(ref.tenantId, endUserKey(ref)) as { id: number } | undefined;
    if (row || !create) return row?.id ?? null;
    return Number(
      this.db
        .prepare('INSERT INTO index_libraries (tenant_id, end_user_id) VALUES (?, ?)')
        .run(ref.tenantId, endUserKey(ref)).lastInsertRowid,
    );
  }

  /**
   * Runs a write in one transaction, then tells the legs its vector changes
   * (only once it has committed), so their cached scans stay current. A
   * write of vectors is counted (vector-writes.ts); when the count it finds
   * is not the one the legs are current with, another connection wrote
   * vectors they have not seen, and their scans go first.
   */
  private write<T>(run: (changes: VectorChanges) => T): T {
    const changes: VectorChanges = { added: [], removed: [] };
    const { result, vectorWrites } = this.db
      .transaction(() => {
        const result = run(changes);
        countKeywordWrite(this.db);
        const wroteVectors = changes.added.length > 0 || changes.removed.length > 0;
        return { result, vectorWrites: wroteVectors ? countVectorWrite(this.db) : null };
      })
      .immediate();
    if (vectorWrites !== null) {
      // The count before this write's own: another connection's vector write moved it past what the legs saw.
      if (vectorWrites - 1 !== this.vectorWritesSeen) this.legs.clear();
      this.vectorWritesSeen = vectorWrites;
      this.legs.changed(changes);
    }
    this.merges.wrote();
    return result;
  }

  async put(ref: LibraryRef, item: IndexItem, generation?: string, options: PutOptions = {}): Promise<void> {
    this.putItems(ref, [item], generation, options);
  }

  /** Several items of one library in one transaction (one commit, one new FTS5 segment): all or none. */
  async putMany(ref: LibraryRef, items: readonly IndexItem[], generation?: string): Promise<void> {
    this.putItems(ref, items, generation, {});
  }

  private putItems(ref: LibraryRef, items: readonly IndexItem[], generation: string | undefined, options: PutOptions) {
    for (const item of items)
      if (item.vectors.length && item.vectors.length !== item.passages.length)
        throw new Error('one vector per passage, or none yet');
    let waits = false;
    this.write((changes) => {
      // In the same transaction as the write: an erasure that ended this generation stays done.
      if (
        generation !== undefined &&
        this.db.prepare('SELECT 1 FROM index_ended_generations WHERE generation = ?').get(generation)
      ) {
        throw new LibraryErasedError();
      }
      const libraryId = this.libraryId(ref, true)!;
      for (const item of items) waits = this.putItem(libraryId, item, generation, options, changes) || waits;
    });
    if (waits) this.trigrams.added();
  }

  /** Writes one item (inside the caller's transaction); true when its text waits for the trigram index. */
  private putItem(
    libraryId: number,
    item: IndexItem,
    generation: string | undefined,
    options: PutOptions,
    changes: VectorChanges,
  ): boolean {
    let waits = false;
    if (item.vectors.length) this.assertOwnVectors();
    const former = this.removeItem(libraryId, item.itemId, changes, false); // a re-put: its window is rewritten below, once
    const shortMemory = isShortMemory(item);
    const itemRowid = Number(
      this.db
        .prepare(
          `INSERT INTO items (item_id, library_id, kind, title, source_ref, content_date, text, generation, short_memory, metadata, doc_kind, content_type)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(
          item.itemId,
          libraryId,
          item.kind,
          item.title,
          item.sourceRef,
          item.contentDate,
          item.text,
          generation ?? null,
          shortMemory ? 1 : 0,
          item.metadata && Object.keys(item.metadata).length ? JSON.stringify(item.metadata) : null,
          item.documentKind ?? null,
          item.contentType ?? null,
        ).lastInsertRowid,
    );
    if (item.metadata) writeMetadataRows(this.db, METADATA_TABLE, itemRowid, libraryId, item.metadata);
    if (DOCUMENT_KINDS.includes(item.kind)) waits = this.trigrams.add(itemRowid, item.text);
    const insertPassage = this.db.prepare(
      'INSERT INTO passages (item_rowid, ordinal, line_start, line_end, text) VALUES (?, ?, ?, ?, ?)',
    );
    const insertVector = this.db.prepare(
      'INSERT INTO passage_vectors (rowid, library_id, kind, embedding) VALUES (?, ?, ?, ?)',
    );
    const stored: Array<{ rowid: number; text: string }> = [];
    item.passages.forEach((passage, i) => {
      const rowid = insertPassage.run(
        itemRowid,
        passage.ordinal,
        passage.lineStart,
        passage.lineEnd,
        passage.text,
      ).lastInsertRowid;
      stored.push({ rowid: Number(rowid), text: passage.text });
      const vector = item.vectors[i];
      if (!vector) return;
      insertVector.run(BigInt(rowid), BigInt(libraryId), item.kind, vectorBlob(vector));
      changes.added.push({ libraryId, rowid: Number(rowid), kind: item.kind, vector });
    });
    // After the passages: a long item has a keyword row per passage.
    if (!shortMemory)
      this.contexts.writeItemRows(
        { rowid: itemRowid, library_id: libraryId, kind: item.kind, title: item.title, text: item.text },
        stored,
      );
    // One rewrite covers this memory arriving and a former version of it leaving.
    if (shortMemory || former?.shortMemory) this.contexts.rewriteContextsAround(libraryId, item.itemId);
    // A replacement: the older versions leave in the same transaction the new one arrives in.
    for (const replaced of options.replaces ?? [])
      if (replaced !== item.itemId) this.removeItem(libraryId, replaced, changes);
    return waits;
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
      const item = items.get(row.item_id) ?? {
        ref: { tenantId: row.tenant_id, endUserId: row.end_user_id || null },
        itemId: row.item_id,
        texts: [],
      };
      item.texts.push(row.text);
      items.set(row.item_id, item);
    }
    return [...items.values()];
  }

  async passagesWithoutVectors(
    ref: LibraryRef,
    itemId: string,
    options: { limit: number; skip?: ReadonlySet<number>; from?: number },
  ): Promise<Passage[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    const skip = options.skip?.size ? [...options.skip] : [];
    const rows = this.db
      .prepare(
        `SELECT p.ordinal, p.line_start, p.line_end, p.text FROM items i CROSS JOIN passages p ON p.item_rowid = i.rowid
         WHERE i.item_id = ? AND i.library_id = ? AND p.ordinal >= ?
           AND NOT EXISTS (SELECT 1 FROM passage_vectors v WHERE v.rowid = p.rowid)
           AND p.ordinal NOT IN (SELECT value FROM json_each(?))
         ORDER BY p.ordinal LIMIT ?`,
      )
      .all(itemId, libraryId, options.from ?? 0, JSON.stringify(skip), options.limit) as Array<{
      ordinal: number;
      line_start: number;
      line_end: number;
      text: string;
    }>;
    return rows.map((r) => ({ ordinal: r.ordinal, lineStart: r.line_start, lineEnd: r.line_end, text: r.text }));
  }

  async attachPassageVectors(
    ref: LibraryRef,
    itemId: string,
    vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>,
  ): Promise<boolean> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return false;
    return this.write((changes) => {
      this.assertOwnVectors();
      const item = this.db
        .prepare('SELECT rowid, kind FROM items WHERE item_id = ? AND library_id = ?')
        .get(itemId, libraryId) as { rowid: number; kind: ItemKind } | undefined;
      if (!item) return false;
      const passageRowid = this.db.prepare('SELECT rowid FROM passages WHERE item_rowid = ? AND ordinal = ?').pluck();
      const deleteVector = this.db.prepare('DELETE FROM passage_vectors WHERE rowid = ?');
      const insertVector = this.db.prepare(
        'INSERT INTO passage_vectors (rowid, library_id, kind, embedding) VALUES (?, ?, ?, ?)',
      );
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
  private removeItem(
    libraryId: number,
    itemId: string,
    changes: VectorChanges,
    rewriteContexts = true,
  ): { shortMemory: boolean } | null {
    const item = this.db
      .prepare('SELECT rowid, short_memory FROM items WHERE item_id = ? AND library_id = ?')
      .get(itemId, libraryId) as { rowid: number; short_memory: number } | undefined;
    if (!item) return null;
    const passageRowids = this.db
      .prepare('SELECT rowid FROM passages WHERE item_rowid = ?')
      .pluck()
      .all(item.rowid) as number[];
    this.contexts.removeFtsRows(item.rowid, passageRowids);
    const deleteVector = this.db.prepare('DELETE FROM passage_vectors WHERE rowid = ?');
    const deleteReindexed = this.db.prepare('DELETE FROM reindex_vectors WHERE rowid = ?');
    for (const rowid of passageRowids) {
      deleteVector.run(BigInt(rowid));
      deleteReindexed.run(rowid); // nothing of a removed item waits in an unfinished reindex either
      changes.removed.push({ libraryId, rowid });
    }
    this.db.prepare('DELETE FROM passages WHERE item_rowid = ?').run(item.rowid);
    this.trigrams.remove(item.rowid);
    this.db.prepare('DELETE FROM items WHERE rowid = ?').run(item.rowid);
    deleteMetadataRows(this.db, METADATA_TABLE, item.rowid);
    if (item.short_memory && rewriteContexts) this.contexts.rewriteContextsAround(libraryId, itemId);
    return { shortMemory: item.short_memory === 1 };
  }

  async remove(ref: LibraryRef, itemId: string): Promise<void> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    this.write((changes) => this.removeItem(libraryId, itemId, changes));
  }

  async removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>> {
    if (generation) return this.removeGeneration(ref, generation);
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    const dropped = this.write((changes) => {
      // The generation ends first, in the same transaction: no put under it lands after this.
      if (generation)
        this.db.prepare('INSERT OR IGNORE INTO index_ended_generations (generation) VALUES (?)').run(generation);
      const libraryId = this.libraryId(ref, false);
      if (libraryId === null) return null;
      // Which items: all (no generation named), those of the generation and untagged ones, or (null) those of no live generation.
      const which =
        generation === undefined
          ? ''
          : generation === null
            ? ' AND (generation IS NULL OR generation IN (SELECT generation FROM index_ended_generations))'
            : ' AND (generation IS NULL OR generation = ?)';
      const items = this.db
        .prepare(`SELECT item_id, kind, short_memory FROM items WHERE library_id = ?${which}`)
        .all(...(generation ? [libraryId, generation] : [libraryId])) as Array<{
        item_id: string;
        kind: ItemKind;
        short_memory: number;
      }>;
      for (const item of items) if (this.removeItem(libraryId, item.item_id, changes, false)) counts[item.kind] += 1;
      // The library's row goes with its last item (a newer generation may already hold some: when short
      // memories left, their contexts are rewritten without them).
      if (this.db.prepare('SELECT 1 FROM items WHERE library_id = ? LIMIT 1').get(libraryId)) {
        if (items.some((item) => item.short_memory)) this.contexts.rewriteAllContexts(libraryId);
        return null;
      }
      this.db.prepare('DELETE FROM index_libraries WHERE id = ?').run(libraryId);
      return libraryId;
    });
    if (dropped !== null) this.legs.dropped(dropped);
    return counts;
  }

  /**
   * An erasure's removal of one generation: the generation ends first, in a
   * transaction of its own (no put under it lands after it, and no read
   * finds its items from then on), then its items (and untagged ones) go a
   * few at a time, other requests served between (ERASE_STEP). In one
   * transaction, erasing an end user of 46 MB stalled the server for 16 s
   * (an outside probe). A removal cut off midway leaves items of an ended
   * generation, found by nothing, which the next erasure of that end user
   * removes (core/end-users.ts).
   */
  private async removeGeneration(ref: LibraryRef, generation: string): Promise<Record<ItemKind, number>> {
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    this.write(() =>
      this.db.prepare('INSERT OR IGNORE INTO index_ended_generations (generation) VALUES (?)').run(generation),
    );
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return counts;
    const next = this.db.prepare(
      `SELECT item_id, kind, short_memory, length(CAST(text AS BLOB)) AS bytes FROM items
       WHERE library_id = ? AND (generation IS NULL OR generation = ?) ORDER BY rowid LIMIT ?`,
    );
    let shortMemories = false;
    for (;;) {
      const rows = next.all(libraryId, generation, ERASE_STEP.items) as Array<{
        item_id: string;
        kind: ItemKind;
        short_memory: number;
        bytes: number;
      }>;
      if (!rows.length) break;
      let bytes = 0;
      const step = rows.filter((row) => (bytes += row.bytes) <= ERASE_STEP.bytes || row === rows[0]);
      this.write((changes) => {
        for (const item of step) if (this.removeItem(libraryId, item.item_id, changes, false)) counts[item.kind] += 1;
      });
      shortMemories ||= step.some((item) => item.short_memory);
      await nextTurn();
    }
    // The library's row goes with its last item (a newer generation may already hold some: when short memories
    // left, their contexts are rewritten without them).
    const dropped = this.write(() => {
      if (this.db.prepare('SELECT 1 FROM items WHERE library_id = ? LIMIT 1').get(libraryId)) {
        if (shortMemories) this.contexts.rewriteAllContexts(libraryId);
        return null;
      }
      this.db.prepare('DELETE FROM index_libraries WHERE id = ?').run(libraryId);
      return libraryId;
    });
    if (dropped !== null) this.legs.dropped(dropped);
    return counts;
  }

  /**
   * Makes removed text unrecoverable from the files: the FTS5 indexes'
   * segments rewritten (deleted rows' tokens are gone; contentless_delete
   * only marks them), and the WAL checkpointed and truncated (old page
   * images hold the deleted text). With secure_delete (database.ts) the
   * freed pages are zeroed. In the segment-merge thread (SegmentMerges.scrub):
   * the deletion waits for it; another request's write waits at most for
   * one of its short steps. A database in memory (tests) has no files to
   * scrub.
   */
  async scrub(): Promise<void> {
    this.trigrams.drain();
    if (this.db.memory) return;
    await this.merges.scrub();
  }

  async keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    return this.legs.keyword(libraryId, query, ref.tenantId);
  }

  async vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return [];
    // The folder's vectors must still be this embedder's; another process's commit (`library reindex`, a
    // second server) may have changed them without the legs hearing of it: their cached scans go. Only a
    // commit that wrote vectors does (vector-writes.ts): a segment merge's do not.
    const version = this.assertOwnVectors();
    if (version !== this.legsVersion) {
      const written = readVectorWrites(this.db);
      if (written !== this.vectorWritesSeen) this.legs.clear();
      this.vectorWritesSeen = written;
      this.legsVersion = version;
    }
    return this.legs.vector(libraryId, query, ref.tenantId);
  }

  /** Stops the legs' threads, if they have any (the connection is its owner's to close). */
  async close(): Promise<void> {
    this.trigrams.cancel();
    await Promise.all([this.legs.close(), this.merges.close()]);
  }

  async updateItem(ref: LibraryRef, itemId: string, changes: DocumentChanges): Promise<boolean> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return false;
    return this.write(() => {
      const item = this.db
        .prepare(
          'SELECT rowid, library_id, kind, title, source_ref, text, short_memory, metadata FROM items WHERE item_id = ? AND library_id = ?',
        )
        .get(itemId, libraryId) as
        | {
            rowid: number;
            library_id: number;
            kind: ItemKind;
            title: string | null;
            source_ref: string | null;
            text: string;
            short_memory: number;
            metadata: string | null;
          }
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
        if (item.short_memory) this.contexts.rewriteContextsAround(libraryId, itemId);
        else
          this.contexts.writeItemRows(
            { rowid: item.rowid, library_id: libraryId, kind: item.kind, title, text: item.text },
            this.contexts.passagesOf(item.rowid),
          );
      }
      return true;
    });
  }

  async documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return null;
    const row = this.db
      .prepare(
        `SELECT text FROM items i WHERE library_id = ? AND item_id = ? AND ${DOCUMENTS_ONLY} AND ${IN_GENERATION}`,
      )
      .get(libraryId, itemId, ...generationParams(generation)) as { text: string } | undefined;
    return row?.text ?? null;
  }

  /** The library's documents that may hold the pattern, newest first (sqlite-grep-scan.ts). */
  async *grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    const libraryId = this.libraryId(ref, false);
    if (libraryId === null) return;
    yield* grepScan(this.db, libraryId, scan);
  }
}
