import type { Filter } from '../../core/filter.js';
import type { SqliteDatabase } from './database.js';
import { itemFilter } from './sqlite-index-sql.js';

/**
 * How a filtered search leg of the SQLite index chooses its way: the wider
 * unfiltered top checked row by row, or the filter inside the leg. Both legs
 * (sqlite-keyword-leg.ts, sqlite-vector-leg.ts) make the same choice with the
 * same figures, so they are here once.
 */

/**
 * A filtered leg first ranks this many times its limit without the filter
 * and keeps the candidates that match, in order: when at least `limit` of
 * them match (or the leg ranked every item it could), they are exactly the
 * first `limit` matches of the leg's own order, found for little more than
 * an unfiltered query. A selective filter leaves too few; the leg then runs
 * with the filter inside it (bench:filters: a 50% filter cost 2.7x the
 * unfiltered search inside, about 1x this way).
 */
export const WIDER_FIRST = 4;
/**
 * The wider top is tried only when the filter keeps at least this share of
 * the library (estimated on FILTER_SAMPLE of its newest items): below it, too
 * few of the wider top would match (a quarter is the break-even at four
 * times), and the pass would be wasted before the filter inside the leg.
 */
export const WIDER_FIRST_SHARE = 0.375;
const FILTER_SAMPLE = 512;

/** The share of a library's items a filter keeps, estimated on its newest FILTER_SAMPLE items (row by row). */
export function filterShare(db: SqliteDatabase, libraryId: number, filter: Filter): number {
  const compiled = itemFilter(filter, libraryId, 'row');
  const { n, kept } = db
    .prepare(
      `SELECT count(*) AS n, coalesce(sum(${compiled.sql}), 0) AS kept FROM (
         SELECT rowid, kind, doc_kind, title, source_ref, content_type, content_date FROM items
         WHERE library_id = ? ORDER BY content_date DESC, item_id DESC LIMIT ${FILTER_SAMPLE}
       ) i`,
    )
    .get(...compiled.params, libraryId) as { n: number; kept: number };
  return n ? kept / n : 0;
}
