/**
 * Turns a free-text query into an FTS5 query for the keyword leg: the
 * query's words, OR-ed, each quoted so no user input is FTS5 syntax. Common
 * English function words are dropped (they match nearly every passage and
 * only slow BM25 down), unless the query has nothing else.
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so ' +
    'such that the their then there these they this to was were what when where which while who whom why ' +
    'will with you your we us do does did not no can could would should may might than too very'
  ).split(' '),
);

export function queryTerms(text: string): string[] {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return content.length ? content : words;
}

export const quoteTerm = (term: string): string => `"${term.replace(/"/g, '""')}"`;

export function keywordMatchExpression(text: string): string | null {
  const terms = queryTerms(text);
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
