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
 * For each query term, the items that hold it (as the keyword leg matches
 * words: stemmed); returns an item's coverage in [0, 1]. A term no item holds
 * still counts in the total: a query that is half unknown words is half matched.
 */
export function coverageOf<K>(documents: number, termItems: ReadonlyArray<ReadonlySet<K>>): (item: K) => number {
  const weights = termItems.map((items) => termWeight(documents, items.size));
  const total = weights.reduce((a, b) => a + b, 0);
  return (item) => {
    if (total <= 0) return 0;
    let held = 0;
    termItems.forEach((items, i) => {
      if (items.has(item)) held += weights[i]!;
    });
    return held / total;
  };
}
