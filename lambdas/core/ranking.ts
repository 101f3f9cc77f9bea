import type { ItemKind, PassageHit } from './model.js';

/**
 * Hybrid ranking: the keyword leg (BM25) and the meaning leg (cosine) are
 * fused over items (a document, a message, a creation): each item counts at
 * its best passage in each leg. Two fusions are available:
 *
 * - 'convex': a weighted sum of each leg's scores normalized per query
 *   (BM25 divided by the query's best BM25, so 0 is "no match"; cosine
 *   min-max scaled over the leg's candidates). It keeps how far apart the
 *   scores are, which rank fusion throws away.
 * - 'rrf': weighted reciprocal rank fusion, weight / (k + rank).
 *
 * Which one and its weights were chosen on BEIR SciFact's train queries
 * (bench/quality.ts --sweep; docs/search-quality.md). With a weak sentence
 * encoder the keyword leg must dominate so hybrid never falls below keyword
 * alone, while a paraphrase found only by meaning still ranks.
 */
export interface FusionWeights {
  keyword: number;
  vector: number;
  /** The RRF constant (rrf only): larger flattens the contribution of top ranks. */
  k: number;
  /** Default 'rrf'. */
  method?: 'rrf' | 'convex';
}

/**
 * Tuned on SciFact train (nDCG@10): convex 0.85/0.15 0.716, best weighted RRF
 * (vector 0.2, k 5) 0.712, keyword alone 0.708, the former RRF default
 * (vector 0.35, k 60) 0.610.
 */
export const DEFAULT_FUSION: FusionWeights = { method: 'convex', keyword: 0.85, vector: 0.15, k: 60 };

export interface FusedItem {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  contentDate: string;
  /** The passage that represents the item: the keyword leg's best when it found it. */
  passageText: string;
  score: number;
  fromKeyword: boolean;
}

/** Keeps each item's best (first) passage in a ranked list of passages. */
function bestPerItem(hits: readonly PassageHit[]): PassageHit[] {
  const seen = new Set<string>();
  const items: PassageHit[] = [];
  for (const hit of hits) {
    if (seen.has(hit.itemId)) continue;
    seen.add(hit.itemId);
    items.push(hit);
  }
  return items;
}

export function fuse(
  keywordHits: readonly PassageHit[],
  vectorHits: readonly PassageHit[],
  weights: FusionWeights = DEFAULT_FUSION,
): FusedItem[] {
  const keyword = bestPerItem(keywordHits);
  const vector = bestPerItem(vectorHits);
  const [keywordScores, vectorScores, maxScore] =
    weights.method === 'convex'
      ? [maxNormalized(keyword), minMaxNormalized(vector), weights.keyword + weights.vector]
      : [reciprocalRanks(keyword, weights.k), reciprocalRanks(vector, weights.k), (weights.keyword + weights.vector) / (weights.k + 1)];

  const byItem = new Map<string, FusedItem>();
  const add = (hits: PassageHit[], scores: number[], weight: number, fromKeyword: boolean) => {
    hits.forEach((hit, i) => {
      const contribution = weight * scores[i]!;
      const existing = byItem.get(hit.itemId);
      if (existing) {
        existing.score += contribution;
        existing.fromKeyword ||= fromKeyword;
      } else {
        byItem.set(hit.itemId, {
          itemId: hit.itemId,
          kind: hit.kind,
          title: hit.title,
          sourceRef: hit.sourceRef,
          contentDate: hit.contentDate,
          passageText: hit.passage.text,
          score: contribution,
          fromKeyword,
        });
      }
    });
  };
  add(keyword, keywordScores, weights.keyword, true);
  add(vector, vectorScores, weights.vector, false);
  return [...byItem.values()]
    .map((item) => ({ ...item, score: maxScore > 0 ? Math.min(1, Math.max(0, item.score / maxScore)) : 0 }))
    .sort((a, b) => b.score - a.score || (a.itemId < b.itemId ? -1 : 1));
}

const reciprocalRanks = (hits: readonly PassageHit[], k: number) => hits.map((_, rank) => 1 / (k + rank + 1));

/** Scores over the best one: BM25 is 0 for no match, so 0 stays "not found". */
function maxNormalized(hits: readonly PassageHit[]): number[] {
  const max = Math.max(...hits.map((h) => h.rawScore));
  return hits.map((h) => (max > 0 ? h.rawScore / max : 1));
}

/** Scores stretched to [0, 1] over this query's candidates (cosines bunch together). */
function minMaxNormalized(hits: readonly PassageHit[]): number[] {
  const raw = hits.map((h) => h.rawScore);
  const min = Math.min(...raw);
  const max = Math.max(...raw);
  return raw.map((s) => (max > min ? (s - min) / (max - min) : 1));
}
