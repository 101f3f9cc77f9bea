/**
 * How much of a query an item matched by words: the share of the query's
 * term weight that the item holds, each term weighted by its rarity in the
 * library (BM25's IDF, kept positive). A hit on one common word ("went up":
 * only "up") is a small share, so it is not taken for a strong keyword match
 * the way "BM25 over the query's best BM25" takes it (that is 1 for whatever
 * ranks first).
 */

/** A term's weight among `documents` items of which `containing` hold it. */
export const termWeight = (documents: number, containing: number): number =>
  Math.log(1 + (Math.max(0, documents - containing) + 0.5) / (containing + 0.5));

/**
 * For each query term, how many of the library's items hold it and which of
 * the items asked about do (as the keyword leg matches words: stemmed);
 * returns the coverage in [0, 1] of any item asked about. A term no item
 * holds still counts in the total: a query that is half unknown words is
 * half matched.
 */
export function coverageOf<K>(
  documents: number,
  terms: ReadonlyArray<{ holding: number; items: ReadonlySet<K> }>,
): (item: K) => number {
  const weights = terms.map((term) => termWeight(documents, term.holding));
  const total = weights.reduce((a, b) => a + b, 0);
  return (item) => {
    if (total <= 0) return 0;
    let held = 0;
    terms.forEach((term, i) => {
      if (term.items.has(item)) held += weights[i]!;
    });
    return held / total;
  };
}
