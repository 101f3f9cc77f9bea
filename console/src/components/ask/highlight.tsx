import { Fragment } from 'react';

/** A stretch of text to mark: [start, end) in UTF-16 units. */
export type Range = [number, number];

/** The common English function words the service drops from a query's keywords (lambdas/core/query-terms.ts). */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by for from has have he her his i if in into is it its of on or our she so ' +
    'such that the their then there these they this to was were what when where which while who whom why ' +
    'will with you your we us do does did not no can could would should may might than too very'
  ).split(' '),
);

const WORD = /[\p{L}\p{N}]+/gu;

/** The words a search matches by (distinct, lower case, function words dropped unless nothing else is left), as the service reads them. */
export function queryTerms(query: string): string[] {
  const words = [...new Set(query.toLowerCase().match(WORD) ?? [])];
  const content = words.filter((word) => !STOPWORDS.has(word));
  return content.length ? content : words;
}

/**
 * Whether two lower-case words are the same word for the keyword index,
 * which stems (Porter): equal, or differing only in an ending of at most
 * three letters after a shared start of at least four, so "prices" meets
 * "price" and "parked" meets "parking", while "car" does not light up
 * "carpenter" nor "worktops" "WorktopExpress".
 */
function sameStem(a: string, b: string): boolean {
  if (a === b) return true;
  const need = Math.max(4, Math.max(a.length, b.length) - 3);
  return a.length >= need && b.length >= need && a.slice(0, need) === b.slice(0, need);
}

/** Where the query's words occur in a search snippet. */
export function termRanges(text: string, terms: readonly string[]): Range[] {
  if (!terms.length) return [];
  const ranges: Range[] = [];
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (terms.some((term) => sameStem(word, term))) ranges.push([match.index, match.index + match[0].length]);
  }
  return ranges;
}

/** The pattern as a literal: only the syntax characters escaped, the only escapes a `u` expression allows ("\\-" throws). */
const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

/** Every occurrence of a literal pattern, as grep matches it (case-insensitive: Unicode case folding). */
export function literalRanges(text: string, pattern: string, caseSensitive: boolean): Range[] {
  if (!pattern) return [];
  const ranges: Range[] = [];
  for (const match of text.matchAll(new RegExp(escapeRegExp(pattern), caseSensitive ? 'gu' : 'giu')))
    ranges.push([match.index, match.index + match[0].length]);
  return ranges;
}

/** Text with the given stretches in `<mark class="hit">` (the console's highlight). */
export function Marked({ text, ranges }: { text: string; ranges: readonly Range[] }) {
  const parts: { text: string; hit: boolean; at: number }[] = [];
  let at = 0;
  for (const [start, end] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    if (start > at) parts.push({ text: text.slice(at, start), hit: false, at });
    parts.push({ text: text.slice(start, end), hit: true, at: start });
    at = end;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hit: false, at });
  return (
    <>
      {parts.map((part) =>
        part.hit ? (
          <mark key={part.at} className="hit">
            {part.text}
          </mark>
        ) : (
          <Fragment key={part.at}>{part.text}</Fragment>
        ),
      )}
    </>
  );
}
