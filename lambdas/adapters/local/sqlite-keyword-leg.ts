import type { Statement } from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { coverageOf } from '../../core/keyword-coverage.js';
import { MEMORY_CONTEXT } from '../../core/memory-context.js';
import type { PassageHit } from '../../core/model.js';
import { ITEM_KINDS } from '../../core/model.js';
import type { KeywordQuery } from '../../core/ports.js';
import { keywordTerms } from '../../core/query-terms.js';
import type { SqliteDatabase } from './database.js';
import { bestPassage, quoteTerm, termsMatchExpression } from './fts-query.js';
import { readKeywordWrites } from './keyword-writes.js';
import type { CompiledFilter } from './sqlite-filter.js';
import { generationParams, type HitRow, IN_GENERATION, itemFilter, KIND_TOKEN, toHit } from './sqlite-index-sql.js';
import { itemOfKeywordRow } from './sqlite-memory-contexts.js';
import { filterShare, WIDER_FIRST, WIDER_FIRST_SHARE } from './sqlite-wider-first.js';

/**
 * The SQLite search index's keyword leg: BM25 over items_fts ranks whole
 * items of one library (a filter checked on a wider top or run inside the
 * ranking: sqlite-wider-first.ts), then each item shows its best passage and
 * its share of the query's terms. Apart from the writes and the vector leg:
 * it reads the tables and nothing else of the index's state.
 */

/** Title matches count this much more than body matches in BM25 (tuned on SciFact train: 1-5 within 0.005). */
const TITLE_WEIGHT = 3;
/** Keyword hits whose best passage is looked for; deeper ones show their first passage. */
const BEST_PASSAGE_ITEMS = 40;
/**
 * How a large library (at least `fromItems` items) is ranked: a term is too
 * common to rank (rankingTerms) when more than `share` of its items hold it,
 * and the items scored are those holding the rarest ranking terms, as many
 * of those terms as hold at most `candidatePostings` items in all
 * (candidateTerms; absent: every item holding a ranking term is scored).
 */
export interface CommonTerms {
  share: number;
  fromItems: number;
  candidatePostings?: number;
}

/**
 * Measured on a million passages (215,676 SciFact items, 60 test queries):
 * ranking without the terms more than a quarter of the items hold took 37.5
 * ms against 67.8 ms for every term (a fifth: 36.6 ms; a tenth: 20.2 ms but
 * 85% of the top 10 kept). Forced on the small benchmark libraries, a quarter
 * cost SciFact's hybrid nDCG@10 0.04 points and LoCoMo's hybrid hit@10 0.3
 * (its keyword leg alone 1.0, its chat 1.5): the rule applies only from
 * 50,000 items (about 230,000 passages), where the keyword leg starts to
 * take longer than the query's embedding and the vector leg together.
 *
 * Scoring only the items that hold the rarest ranking terms (20,000 holders
 * in all), on the same million passages over 200 SciFact train queries: the
 * leg's p50 went from 140-151 ms to 88 ms (p99 400-410 to 196 ms), its top 10
 * the same as when every holder is scored (10,000 holders: 73 ms, 99.0% of
 * the top 10 kept; 5,000: 74 ms, 95.5%). Once the terms' counts were
 * remembered (LibraryCounts) the budget set more of the leg's time, and it
 * is now 10,000 holders: measured again on the same queries, p50 40.1-40.9
 * ms against 46.7-47.0 ms for 20,000 (5,000: 37.0 ms), with 97.5% of the top
 * 10 by every term kept against 98.5% (5,000: 95.5%).
 */
export const DEFAULT_COMMON_TERMS: CommonTerms = { share: 0.25, fromItems: 50_000, candidatePostings: 10_000 };

/**
 * The keyword leg over the library `libraryId` (its id in index_libraries).
 * `counts` (one per connection) knows the library's item count, whether it
 * holds every item of the index, and the terms counted since the last write.
 */
export function keywordLeg(
  db: SqliteDatabase,
  libraryId: number,
  query: KeywordQuery,
  counts: LibraryCounts,
  /** null: every term ranks (bench:search compares against it). */
  commonTerms: CommonTerms | null = DEFAULT_COMMON_TERMS,
): PassageHit[] {
  const terms = keywordTerms(query.text);
  if (!terms.length) return [];
  const size = counts.of(libraryId);
  const library = libraryClause(libraryId, size);
  const holders = termHolders(db, library, terms, counts);
  const ranked = rankingTerms(terms, holders, size.items, commonTerms);
  const ranking = termsMatchExpression(ranked)!;
  const rareTerms = candidateTerms(ranked, holders, terms, size.items, commonTerms);
  // Every item has one of the kinds: without a filter the kind clause would only cost time.
  const kinds = query.kinds?.length && ITEM_KINDS.some((k) => !query.kinds!.includes(k)) ? query.kinds : null;
  const kindClause = kinds ? `kind : (${kinds.map((k) => KIND_TOKEN[k]).join(' OR ')}) AND ` : '';
  const match = `${library}${kindClause}${ranking}`;
  type RankedRow = Omit<HitRow, 'ordinal' | 'line_start' | 'line_end' | 'text'> & {
    item_rowid: number;
    kept: number;
    /** The keyword row that scored: below 0, the passage (minus its rowid) a long item is ranked by. */
    best_row: number;
  };
  /**
   * The leg's best items: `inside` filters within the ranking (before its
   * LIMIT); `kept` says whether each row matches `marked`. Whole items
   * (rowid above 0) are ranked by FTS5 itself, top `limit` first; a long
   * item's passages (below 0, WHOLE_ITEM_PASSAGES) by a second query over
   * those rows alone, each item at its best passage. Ranking both in one
   * query grouped by item took the leg's p50 from 7.6 to 12.4 ms at 50,000
   * passages; the second query seeks past the rows of whole items, so it
   * costs next to nothing in a library with no long item.
   */
  const best = (limit: number, filter?: { inside?: CompiledFilter; marked?: CompiledFilter }) => {
    const { inside, marked } = filter ?? {};
    const rareClause = rareTerms ? ' AND +rowid IN (SELECT rowid FROM items_fts WHERE items_fts MATCH ?)' : '';
    const rareParams = rareTerms ? [`${library}${kindClause}${termsMatchExpression(rareTerms)}`] : [];
    const insideItems = inside ? `(SELECT i.rowid FROM items i WHERE i.library_id = ? AND ${inside.sql})` : '';
    const insideParams = inside ? [libraryId, ...inside.params] : [];
    const score = `-bm25(items_fts, 0, 0, ${TITLE_WEIGHT}, 1, ${MEMORY_CONTEXT.weight})`;
    const rows = (ranked: string, params: unknown[]) =>
      db
        .prepare(
          `WITH ${ranked}
           SELECT i.rowid AS item_rowid, i.item_id, i.kind, i.title, i.source_ref, i.content_date, i.metadata, r.score,
                  r.best_row, ${marked ? marked.sql : '1'} AS kept
           FROM ranked r CROSS JOIN items i ON i.rowid = r.item_rowid
           WHERE i.library_id = ? AND ${IN_GENERATION}`,
        )
        .all(...params, ...(marked?.params ?? []), libraryId, ...generationParams(query.generation)) as RankedRow[];
    // `+rowid`: SQLite would otherwise hand the IN list to FTS5 as rowid lookups, one full-text match per
    // matching item (a 50% filter over 30k documents took 75 s); as written, the match runs once and is filtered.
    const whole = rows(
      `ranked AS (
         SELECT rowid AS item_rowid, ${score} AS score, rowid AS best_row
         FROM items_fts WHERE items_fts MATCH ? AND rowid > 0${rareClause}${inside ? ` AND +rowid IN ${insideItems}` : ''}
         ORDER BY score DESC LIMIT ?
       )`,
      [match, ...rareParams, ...insideParams, limit],
    );
    // (MATERIALIZED: bm25() cannot run inside the grouping.)
    const byPassages = rows(
      `matched AS MATERIALIZED (
         SELECT rowid AS row, ${score} AS score FROM items_fts WHERE items_fts MATCH ? AND rowid < 0${rareClause}
       ), ranked AS (
         SELECT ${itemOfKeywordRow('row')} AS item_rowid, max(score) AS score, row AS best_row
         FROM matched GROUP BY item_rowid${inside ? ` HAVING item_rowid IN ${insideItems}` : ''}
         ORDER BY score DESC, item_rowid LIMIT ?
       )`,
      [match, ...rareParams, ...insideParams, limit],
    );
    return [...whole, ...byPassages].sort((a, b) => b.score - a.score || a.item_rowid - b.item_rowid).slice(0, limit);
  };
  let items: RankedRow[];
  if (!query.filter) {
    items = best(query.limit);
  } else {
    // A broad filter: the wider unfiltered top, each row checked; enough matches there are the leg's best (WIDER_FIRST).
    const wider = query.limit * WIDER_FIRST;
    const candidates =
      filterShare(db, libraryId, query.filter) >= WIDER_FIRST_SHARE
        ? best(wider, { marked: itemFilter(query.filter, libraryId, 'row') })
        : null;
    const kept = candidates?.filter((row) => row.kept) ?? [];
    items =
      candidates && (kept.length >= query.limit || candidates.length < wider)
        ? kept.slice(0, query.limit)
        : best(query.limit, { inside: itemFilter(query.filter, libraryId) });
  }
  if (!items.length) return [];
  const passages = bestPassages(db, items, query.text);
  const rows = keywordRows(db, items);
  // Every term of the query, the common ones too: a hit holding them holds more of what was asked.
  const coverage = coverageOf(
    size.items,
    holders.map((term) => ({ holding: term.holding, items: term.among(rows) })),
  );
  return items.flatMap((item) => {
    const passage = passages.get(item.item_rowid);
    const share = coverage(item.item_rowid);
    // A hit that holds none of the terms itself was found through its neighbours' words.
    return passage
      ? [{ ...toHit({ ...item, ...passage }), coverage: share, ...(share === 0 ? { viaContext: true } : {}) }]
      : [];
  });
}

/** An item the ranking kept, and the keyword row it ranked by (below 0: a long item's passage, minus its rowid). */
interface RankedItem {
  item_rowid: number;
  best_row: number;
}

/** How many of the library's keyword rows hold a term, and which of some items do. */
interface TermHolders {
  holding: number;
  /** The items among those of these keyword rows (keywordRows) that hold the term. */
  among(rows: readonly number[]): Set<number>;
}

/**
 * For each term, how many of the library's items hold it (one FTS5 count,
 * stemmed exactly as BM25 matches it, remembered until the next write:
 * LibraryCounts) and, asked later, which of the leg's
 * items do (a second pass over the term's list, naming only those items:
 * reading every holder's rowid into JavaScript instead took a quarter of
 * the leg at 200k passages; remembering a common term's holders from one
 * query to the next gained nothing at a million). The counts decide which
 * terms rank (rankingTerms) and weigh the terms in each hit's coverage
 * (core/keyword-coverage.ts).
 */
function termHolders(
  db: SqliteDatabase,
  library: string,
  terms: readonly string[],
  counts: LibraryCounts,
): TermHolders[] {
  const count = db.prepare('SELECT count(*) FROM items_fts WHERE items_fts MATCH ?').pluck();
  const named = db
    .prepare(
      `SELECT json_group_array(DISTINCT ${itemOfKeywordRow('items_fts.rowid')}) FROM items_fts
       WHERE items_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`,
    )
    .pluck();
  return terms.map((term) => {
    const match = `${library}{title body} : ${quoteTerm(term)}`;
    // Keyword rows: a long item's passages each count (WHOLE_ITEM_PASSAGES), a little more common than it is.
    const holding = counts.holding(match, (m) => count.get(m) as number);
    return {
      holding,
      among: (rows) =>
        holding ? new Set(JSON.parse(named.get(match, JSON.stringify(rows)) as string) as number[]) : new Set(),
    };
  });
}

/**
 * The terms BM25 ranks by: in a large library, all but the common ones
 * (CommonTerms), split as Lucene's CommonTermsQuery splits them, but the
 * common ones are not scored at all (FTS5's bm25() would read a scored
 * term's every holder to weigh it). A word in a quarter of the items weighs little in
 * BM25 (an IDF of about 1.1, against 4.6 and more for a word in one item in
 * a hundred), but ranking its every holder is most of the leg's time in a
 * large library. An item holding only common terms is then not a keyword
 * hit, unless every term of the query is common (or found nowhere), when all
 * of them rank. Common terms still count in each hit's coverage.
 */
function rankingTerms(
  terms: readonly string[],
  holders: readonly TermHolders[],
  items: number,
  common: CommonTerms | null,
): string[] {
  if (!common || items < common.fromItems) return [...terms];
  const telling = terms.filter((_, i) => holders[i]!.holding > 0 && holders[i]!.holding <= common.share * items);
  return telling.length ? telling : [...terms];
}

/**
 * The ranking terms whose holders are the items scored, when scoring every
 * holder of every ranking term would read too many: the rarest ones, while
 * their holders add up to at most `candidatePostings` (the rarest alone if it
 * has more). Every ranking term still counts in a candidate's score; an item
 * holding only the more common ones is not scored. Those terms weigh least
 * in BM25 (IDF falls with the holders), so an item holding none of the rare
 * ones rarely ranks high: this is MaxScore's split of a query into the
 * terms that must match and the ones that only add to a score, without its
 * guarantee. FTS5's bm25() costs most per item scored, far more than
 * matching. null: score every holder (a small library, or all the ranking
 * terms fit the budget).
 */
function candidateTerms(
  ranked: readonly string[],
  holders: readonly TermHolders[],
  terms: readonly string[],
  items: number,
  common: CommonTerms | null,
): string[] | null {
  if (!common?.candidatePostings || items < common.fromItems) return null;
  const holding = new Map(terms.map((term, i) => [term, holders[i]!.holding]));
  const rarestFirst = [...ranked].sort((a, b) => holding.get(a)! - holding.get(b)!);
  const chosen: string[] = [];
  let postings = 0;
  for (const term of rarestFirst) {
    if (chosen.length && postings + holding.get(term)! > common.candidatePostings) break;
    chosen.push(term);
    postings += holding.get(term)!;
  }
  return chosen.length < ranked.length ? chosen : null;
}

/**
 * The passage to show for each item: among the first BEST_PASSAGE_ITEMS
 * items, the one sharing the most query words (see bestPassage); deeper
 * items show their first passage, which holds the title (reading every
 * passage of 200 items cost more than the full-text query itself).
 */
function bestPassages(db: SqliteDatabase, items: readonly RankedItem[], text: string) {
  type PassageRow = Pick<HitRow, 'ordinal' | 'line_start' | 'line_end' | 'text'> & { item_rowid: number };
  // A long item shows the passage it ranked by.
  const ranked = items.filter((item) => item.best_row < 0);
  const rankedBy = ranked.length
    ? (db
        .prepare(
          `SELECT item_rowid, ordinal, line_start, line_end, text FROM passages
           WHERE rowid IN (SELECT -value FROM json_each(?))`,
        )
        .all(JSON.stringify(ranked.map((item) => item.best_row))) as PassageRow[])
    : [];
  const itemRowids = items.filter((item) => item.best_row > 0).map((item) => item.item_rowid);
  const top = itemRowids.slice(0, BEST_PASSAGE_ITEMS);
  const rows = db
    .prepare(
      `SELECT item_rowid, ordinal, line_start, line_end, text FROM passages
       WHERE item_rowid IN (SELECT value FROM json_each(?)) AND (ordinal = 0 OR item_rowid IN (SELECT value FROM json_each(?)))
       ORDER BY item_rowid, ordinal`,
    )
    .all(JSON.stringify(itemRowids), JSON.stringify(top)) as PassageRow[];
  const byItem = new Map<number, PassageRow[]>();
  for (const row of rows) (byItem.get(row.item_rowid) ?? byItem.set(row.item_rowid, []).get(row.item_rowid)!).push(row);
  const words = keywordTerms(text);
  const best = new Map<number, PassageRow>(rankedBy.map((row) => [row.item_rowid, row]));
  for (const [itemRowid, passages] of byItem) {
    best.set(
      itemRowid,
      passages.length > 1
        ? passages[
            bestPassage(
              words,
              passages.map((p) => p.text),
            )
          ]!
        : passages[0]!,
    );
  }
  return best;
}

/** The keyword rows of some items: each whole item's own, and every passage of a long one (WHOLE_ITEM_PASSAGES). */
function keywordRows(db: SqliteDatabase, items: readonly RankedItem[]): number[] {
  const long = items.filter((item) => item.best_row < 0).map((item) => item.item_rowid);
  const whole = items.filter((item) => item.best_row > 0).map((item) => item.item_rowid);
  if (!long.length) return whole;
  const passages = db
    .prepare('SELECT -rowid FROM passages WHERE item_rowid IN (SELECT value FROM json_each(?))')
    .pluck()
    .all(JSON.stringify(long)) as number[];
  return [...whole, ...passages];
}

/** A library's size as the keyword leg needs it. */
interface LibrarySize {
  /** Its items (the document count of the keyword coverage's term weights). */
  items: number;
  /** No other library has an item in the index. */
  holdsEveryItem: boolean;
}

/**
 * The full-text clause that keeps a match to the library: none when the
 * library holds every item. The clause costs FTS5 an intersection with the
 * library's token, whose list names every one of its items (a fifth of the
 * leg at a million passages), and a row's BM25 score is the same with or
 * without it (the library column weighs 0), so leaving it out changes no
 * result; the items join still checks the library.
 */
function libraryClause(libraryId: number, size: LibrarySize): string {
  return size.holdsEveryItem ? '' : `library : ${quoteTerm(`lib${libraryId}`)} AND `;
}

/** Term counts remembered per connection: enough for the distinct terms of thousands of queries. */
const REMEMBERED_TERM_COUNTS = 20_000;

/**
 * What the keyword leg counts in a library and would count again for the
 * next query: each library's size and how many of its items hold a term.
 * Both are remembered until the index's items are written again, by any
 * connection (keyword-writes.ts), and forgotten then: a term counted before
 * a capture must be found in it. Other writes to the file (a search's usage
 * row, a segment merge) change no count. Counting a library's
 * items walks its index (9 ms at 215,000 items) and counting a term walks its
 * every holder (the counts were a sixth of the leg at a million passages),
 * which a search of an unchanged library need not repeat: remembering the
 * counts took the leg's p50 there from 51-54 to 45-46 ms over 200 SciFact
 * test queries (about half their terms asked before).
 */
export class LibraryCounts {
  private version = -1;
  private readonly sizes = new Map<number, LibrarySize>();
  private readonly termCounts = new LRUCache<string, number>({ max: REMEMBERED_TERM_COUNTS });
  private statements: { size: Statement } | null = null;

  /** Prepared on first use: a connection may be opened before the index's tables exist. */
  constructor(private readonly db: SqliteDatabase) {}

  of(libraryId: number): LibrarySize {
    this.statements ??= {
      size: this.db.prepare(
        `SELECT (SELECT count(*) FROM items WHERE library_id = ?) AS items,
                NOT EXISTS (SELECT 1 FROM items WHERE library_id < ?)
                  AND NOT EXISTS (SELECT 1 FROM items WHERE library_id > ?) AS alone`,
      ),
    };
    const version = readKeywordWrites(this.db);
    if (version !== this.version) {
      this.version = version;
      this.sizes.clear();
      this.termCounts.clear();
    }
    let size = this.sizes.get(libraryId);
    if (!size) {
      const row = this.statements.size.get(libraryId, libraryId, libraryId) as { items: number; alone: number };
      size = { items: row.items, holdsEveryItem: row.alone === 1 };
      this.sizes.set(libraryId, size);
    }
    return size;
  }

  /**
   * How many items a full-text match (a library's term) holds, counted by
   * `count` unless counted since the last write. Read after `of`, which
   * notices the writes.
   */
  holding(match: string, count: (match: string) => number): number {
    let holding = this.termCounts.get(match);
    if (holding === undefined) {
      holding = count(match);
      this.termCounts.set(match, holding);
    }
    return holding;
  }
}
