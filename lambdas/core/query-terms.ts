/**
 * The terms a free-text query is matched by in the keyword leg: its distinct
 * words, lower case, without common English function words (they match
 * nearly every item and only slow BM25 down) unless the query has nothing
 * else; at most MAX_QUERY_TERMS of them.
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so ' +
    'such that the their then there these they this to was were what when where which while who whom why ' +
    'will with you your we us do does did not no can could would should may might than too very'
  ).split(' '),
);

/**
 * An English clitic after an apostrophe (straight or typographic): the `s` of
 * "what's" and "Mom's", the `t` of "don't", the `ll` of "we'll". Split off as
 * words of their own they would match every possessive in the library (a
 * note about "Mom's birthday" found by the words of "what's the wifi code"),
 * so they are dropped with the apostrophe, as OpenSearch's english analyzer
 * drops a possessive.
 */
const CLITIC = /(?<=[\p{L}\p{N}])['\u2019](?:s|t|d|ll|m|re|ve)(?![\p{L}\p{N}])/gu;

/** Every distinct word of the query, clitics and stopwords dropped (stopwords kept when nothing else is left). */
export function queryTerms(text: string): string[] {
  const words = [
    ...new Set(
      text
        .toLowerCase()
        .replace(CLITIC, '')
        .match(/[\p{L}\p{N}]+/gu) ?? [],
    ),
  ];
  const content = words.filter((w) => !STOPWORDS.has(w));
  return content.length ? content : words;
}

/**
 * The most terms the keyword leg matches a query by. Its cost grows with
 * each term (one more posting list in the full-text query, and locally one
 * more lookup for keyword coverage): a 1,000-character query of distinct
 * words has 100 to 330 of them. The longest benchmark query has 24 (SciFact's
 * 1,109 queries: p99 18; LoCoMo's questions: at most 14), so 32 leaves every
 * ordinary query as it is and bounds a pasted page to the cost of a long
 * question.
 */
export const MAX_QUERY_TERMS = 32;

/**
 * The query's terms as the keyword leg uses them: all of them up to
 * MAX_QUERY_TERMS; beyond, the longest ones (a longer word is a rarer one, so
 * it says more about what is sought; ties: the earlier), in the query's order.
 */
export function keywordTerms(text: string): string[] {
  const terms = queryTerms(text);
  if (terms.length <= MAX_QUERY_TERMS) return terms;
  const kept = new Set(
    terms
      .map((term, at) => ({ term, at }))
      .sort((a, b) => b.term.length - a.term.length || a.at - b.at)
      .slice(0, MAX_QUERY_TERMS)
      .map(({ term }) => term),
  );
  return terms.filter((term) => kept.has(term));
}

/**
 * The query text for an index that analyses it itself (OpenSearch): as it
 * came when it has at most MAX_QUERY_TERMS terms, else its keyword terms
 * joined by spaces.
 */
export function keywordQueryText(text: string): string {
  return queryTerms(text).length <= MAX_QUERY_TERMS ? text : keywordTerms(text).join(' ');
}
