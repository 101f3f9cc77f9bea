import type { ItemKind, PassageHit } from './model.js';

/**
 * Hybrid ranking: the keyword leg (BM25) and the meaning leg (cosine) are
 * fused by weighted reciprocal rank fusion over items (a document, a message,
 * a creation): each item counts at its best passage in each leg.
 *
 * The weights were tuned on BEIR SciFact's train queries (bench/quality.ts);
 * with a weak sentence encoder the keyword leg must dominate so hybrid never
 * falls below keyword alone, while a paraphrase found only by meaning still
 * ranks.
 */
export interface FusionWeights {
  keyword: number;
  vector: number;
  /** The RRF constant: larger flattens the contribution of top ranks. */
  k: number;
}

export const DEFAULT_FUSION: FusionWeights = { keyword: 1, vector: 0.35, k: 60 };

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
  const byItem = new Map<string, FusedItem>();
  const maxScore = (weights.keyword + weights.vector) / (weights.k + 1);
  const add = (hits: PassageHit[], weight: number, fromKeyword: boolean) => {
    hits.forEach((hit, rank) => {
      const contribution = weight / (weights.k + rank + 1);
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
  add(bestPerItem(keywordHits), weights.keyword, true);
  add(bestPerItem(vectorHits), weights.vector, false);
  return [...byItem.values()]
    .map((item) => ({ ...item, score: Math.min(1, item.score / maxScore) }))
    .sort((a, b) => b.score - a.score || (a.itemId < b.itemId ? -1 : 1));
}
