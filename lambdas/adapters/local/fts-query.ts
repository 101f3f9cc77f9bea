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
  return `{title body} : (${terms.map(quoteTerm).join(' OR ')})`;
}
