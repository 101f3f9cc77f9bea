import type { Filter } from '../../core/filter.js';
import type { ItemKind, PassageHit } from '../../core/model.js';
import type { VectorQuery } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import { generationParams, type HitRow, IN_GENERATION, itemFilter, toHit } from './sqlite-index-sql.js';
import { filterShare, WIDER_FIRST, WIDER_FIRST_SHARE } from './sqlite-wider-first.js';
import type { VectorCache } from './vector-cache.js';
import { type ScanHit, VectorScan } from './vector-scan.js';

/**
 * The SQLite search index's vector leg: a library's passage vectors scanned
 * in memory (VectorScan, kept under a budget by VectorCache), a filter checked on a wider nearest set or
 * run inside the scan (sqlite-wider-first.ts), and the nearest passages
 * read back as hits. Apart from the writes, which share its VectorCache to
 * keep the cached scans current, and from the keyword leg.
 */

export class SqliteVectorLeg {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly dimensions: number,
    /** The libraries' scans, kept current by the index's writes (SearchLegs.changed) once they commit. */
    private readonly scans: VectorCache,
  ) {}

  /** The vector leg over the library `libraryId` (its id in index_libraries). */
  search(libraryId: number, query: VectorQuery): PassageHit[] {
    // Filtering by kind inside the scan means a rare kind is never crowded out; a filter is read as in
    // keywordSearch: the wider unfiltered nearest, kept when enough match, else the scan of its matches alone.
    const scan = this.scanFor(libraryId);
    let nearest: ScanHit[];
    if (!query.filter) {
      nearest = scan.search(query.vector, query.limit, query.kinds);
    } else {
      const wider = query.limit * WIDER_FIRST;
      const candidates =
        filterShare(this.db, libraryId, query.filter) >= WIDER_FIRST_SHARE
          ? scan.search(query.vector, wider, query.kinds)
          : null;
      const matching = candidates
        ? candidatesMatching(
            this.db,
            candidates.map((c) => c.rowid),
            query.filter,
          )
        : new Set<number>();
      const kept = candidates?.filter((c) => matching.has(c.rowid)) ?? [];
      nearest =
        candidates && (kept.length >= query.limit || candidates.length < wider)
          ? kept.slice(0, query.limit)
          : scan.search(query.vector, query.limit, query.kinds, passagesMatching(this.db, libraryId, query.filter));
    }
    if (!nearest.length) return [];
    const rows = this.db
      .prepare(
        `SELECT p.rowid AS passage_rowid, i.item_id, i.kind, i.title, i.source_ref, i.content_date, i.metadata,
                p.ordinal, p.line_start, p.line_end, p.text, 0 AS score
         FROM json_each(?) n CROSS JOIN passages p ON p.rowid = n.value CROSS JOIN items i ON i.rowid = p.item_rowid
         WHERE i.library_id = ? AND ${IN_GENERATION}`,
      )
      .all(JSON.stringify(nearest.map((n) => n.rowid)), libraryId, ...generationParams(query.generation)) as Array<
      HitRow & { passage_rowid: number }
    >;
    const byRowid = new Map(rows.map((r) => [r.passage_rowid, r]));
    return nearest.flatMap((n) => {
      const row = byRowid.get(n.rowid);
      return row ? [toHit({ ...row, score: n.score })] : [];
    });
  }

  /**
   * The library's vectors in memory, loaded from SQLite on first use and
   * kept while the cache's budget allows (VectorCache).
   */
  private scanFor(libraryId: number): VectorScan {
    let scan = this.scans.get(libraryId);
    if (!scan) {
      const count = this.db
        .prepare('SELECT count(*) FROM passage_vectors WHERE library_id = ?')
        .pluck()
        .get(libraryId) as number;
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
}

/** Which of these passages (vector rowids) belong to items that match the filter, looked up row by row. */
function candidatesMatching(db: SqliteDatabase, passageRowids: readonly number[], filter: Filter): Set<number> {
  if (!passageRowids.length) return new Set();
  const compiled = itemFilter(filter, 0, 'row');
  const rowids = db
    .prepare(
      `SELECT p.rowid FROM json_each(?) n CROSS JOIN passages p ON p.rowid = n.value CROSS JOIN items i ON i.rowid = p.item_rowid
       WHERE ${compiled.sql}`,
    )
    .pluck()
    .all(JSON.stringify(passageRowids), ...compiled.params) as number[];
  return new Set(rowids);
}

/** The passages (vector rowids) of a library's items that match a filter, through the metadata table's indexes. */
export function passagesMatching(db: SqliteDatabase, libraryId: number, filter: Filter): Set<number> {
  const compiled = itemFilter(filter, libraryId);
  const rowids = db
    .prepare(
      `SELECT p.rowid FROM items i CROSS JOIN passages p ON p.item_rowid = i.rowid WHERE i.library_id = ? AND ${compiled.sql}`,
    )
    .pluck()
    .all(libraryId, ...compiled.params) as number[];
  return new Set(rowids);
}
