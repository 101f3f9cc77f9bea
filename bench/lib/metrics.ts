/**
 * Retrieval metrics as BEIR computes them (pytrec_eval), per query; average
 * over queries with mean().
 *
 *   ndcgAt(ranked, judged, k)    nDCG@k with graded relevance, log2 discount
 *   recallAt(ranked, judged, k)  share of the relevant documents found in the top k
 *   percentile(values, p)        nearest-rank percentile (p in 0..100) of a sample
 */
export function ndcgAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    const gain = judged.get(id) ?? 0;
    if (gain > 0) dcg += gain / Math.log2(i + 2);
  });
  const ideal = [...judged.values()]
    .filter((g) => g > 0)
    .sort((a, b) => b - a)
    .slice(0, k);
  const idcg = ideal.reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

export function recallAt(ranked: readonly string[], judged: ReadonlyMap<string, number>, k: number): number {
  const relevant = [...judged.entries()].filter(([, g]) => g > 0).map(([id]) => id);
  if (!relevant.length) return 0;
  const top = new Set(ranked.slice(0, k));
  return relevant.filter((id) => top.has(id)).length / relevant.length;
}

export const mean = (values: readonly number[]): number =>
  values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;

export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1]!;
}
