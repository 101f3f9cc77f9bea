import type { GrepCandidate } from '../../core/model.js';
import type { GrepScan } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';
import { quoteTerm } from './fts-query.js';
import { metadataOf } from './sqlite-filter.js';
import { DOCUMENTS_ONLY, generationParams, IN_GENERATION, itemFilter } from './sqlite-index-sql.js';
import { GREP_CANDIDATES } from './sqlite-trigram-backlog.js';

/**
 * The SQLite search index's grep candidates: a library's documents, newest
 * first, narrowed by the trigram index where it can answer exactly (with the
 * documents still waiting to enter it: sqlite-trigram-backlog.ts), read in
 * keyset pages and one text at a time. Apart from the search legs: it
 * ranks nothing, and bounds what it reads rather than how it scores.
 */

/**
 * Documents listed (metadata only: texts are read one by one) per step of a
 * grep scan: 64 first, for a page that ends within its first matches, then
 * four times more each step up to 1,024. Each step evaluates the trigram
 * match again (all the library's documents holding a common trigram), so a
 * long scan takes few steps.
 */
const GREP_BATCH = { first: 64, growth: 4, most: 1_024 };

/**
 * Keyset pages of documents' metadata (GREP_BATCH), then each document's text
 * read alone as the caller asks for it: a synchronous read never holds more
 * than one text (a page of large extracted texts read at once could be
 * gigabytes), and nothing is read past where the caller's budget stops it.
 */
export async function* grepScan(db: SqliteDatabase, libraryId: number, scan: GrepScan): AsyncIterable<GrepCandidate> {
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
    where.push(GREP_CANDIDATES);
    params.push(trigramQuery(scan.pattern));
  }
  const pageFrom = (comparison: '<=' | '<') =>
    db.prepare(
      `SELECT rowid, item_id, title, source_ref, content_date, metadata FROM items i
     WHERE ${where.join(' AND ')} AND (content_date, item_id) ${comparison} (?, ?)
     ORDER BY content_date DESC, item_id DESC LIMIT ?`,
    );
  const pages = { inclusive: pageFrom('<='), exclusive: pageFrom('<') };
  const textOf = db.prepare('SELECT text FROM items WHERE rowid = ? AND item_id = ?').pluck();
  // Read in small pages (keyset), never holding a cursor open across an await.
  let inclusive = !scan.startAfter;
  let position = scan.startAt ?? scan.startAfter ?? { createdAt: '\uffff', id: '\uffff' };
  for (let batch = GREP_BATCH.first; ; batch = Math.min(batch * GREP_BATCH.growth, GREP_BATCH.most)) {
    const rows = pages[inclusive ? 'inclusive' : 'exclusive'].all(
      ...params,
      position.createdAt,
      position.id,
      batch,
    ) as Array<{
      rowid: number;
      item_id: string;
      title: string | null;
      source_ref: string | null;
      content_date: string;
      metadata: string | null;
    }>;
    for (const r of rows) {
      const text = textOf.get(r.rowid, r.item_id) as string | undefined;
      // Removed since its page was read: it is no longer in the library.
      if (text === undefined) continue;
      yield {
        itemId: r.item_id,
        title: r.title,
        sourceRef: r.source_ref,
        contentDate: r.content_date,
        text,
        metadata: metadataOf(r.metadata),
      };
    }
    if (rows.length < batch) return;
    const last = rows[rows.length - 1]!;
    position = { createdAt: last.content_date, id: last.item_id };
    inclusive = false;
  }
}

/** The most of a pattern's trigrams the index is asked for. */
const MOST_TRIGRAMS = 8;

/**
 * The trigram index's query for a pattern: its distinct trigrams (at most
 * MOST_TRIGRAMS, spread over it), each required, in any order. The pattern
 * as one phrase would be exact, but FTS5 checks a phrase at every position
 * of its first trigram in every document holding it, the phrase's length
 * each time: 512 a's against one tenant's text of two million a's held the
 * thread for 6 to 8 s, for every tenant (the index is one table). Required
 * trigrams cost only their lists; the documents they pass are read line by
 * line anyway (core/grep.ts), so none is found that does not hold the
 * pattern.
 */
export function trigramQuery(pattern: string): string {
  const characters = [...pattern];
  const trigrams = [...new Set(characters.slice(0, -2).map((_, i) => characters.slice(i, i + 3).join('')))];
  const chosen =
    trigrams.length <= MOST_TRIGRAMS
      ? trigrams
      : Array.from(
          { length: MOST_TRIGRAMS },
          (_, i) => trigrams[Math.round((i * (trigrams.length - 1)) / (MOST_TRIGRAMS - 1))]!,
        );
  return chosen.map(quoteTerm).join(' AND ');
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
