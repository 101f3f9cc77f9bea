import { keywordTerms } from '../../core/query-terms.js';

/** A term as an FTS5 string: never syntax. */
export const quoteTerm = (term: string): string => `"${term.replace(/"/g, '""')}"`;

/**
 * Turns a free-text query into an FTS5 query for the keyword leg: the
 * query's keyword terms (core/query-terms.ts: distinct words, common English
 * function words dropped, at most MAX_QUERY_TERMS), OR-ed, each quoted so no
 * user input is FTS5 syntax.
 */
export function keywordMatchExpression(text: string): string | null {
  return termsMatchExpression(keywordTerms(text));
}

/** The FTS5 query matching any of these terms in an item's words (see keywordMatchExpression). */
export function termsMatchExpression(terms: readonly string[]): string | null {
  if (!terms.length) return null;
  // context: a short memory's neighbours (core/memory-context.ts), weighed below its own words.
  return `{title body context} : (${terms.map(quoteTerm).join(' OR ')})`;
}

/** A crude stem (a word's first letters) so "migrations" meets "migration" when choosing a passage. */
const root = (word: string) => word.slice(0, Math.max(4, word.length - 3));

/**
 * The index of the passage that contains the most distinct query words (the
 * first on a tie), each checked as a substring by its crude stem. It only
 * picks which passage to show for an item already ranked by BM25 over its
 * whole text, so a cheap check in memory beats a second full-text query
 * (and a Unicode tokenizer here cost 17 ms per query over 200 items).
 */
export function bestPassage(terms: readonly string[], passages: readonly string[]): number {
  const roots = [...new Set(terms.map(root))];
  let best = 0;
  let bestCount = -1;
  passages.forEach((text, i) => {
    const lower = text.toLowerCase();
    const count = roots.filter((r) => lower.includes(r)).length;
    if (count > bestCount) [best, bestCount] = [i, count];
  });
  return best;
}
