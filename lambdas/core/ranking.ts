import type { ItemKind, PassageHit } from './model.js';

/**
 * Hybrid ranking: the keyword leg (BM25) and the meaning leg (cosine) are
 * fused over items (a document, a message, a creation): each item counts at
 * its best passage in each leg. Two fusions are available:
 *
 * - 'convex': a weighted sum of each leg's scores normalized per query. It
 *   keeps how far apart the scores are, which rank fusion throws away.
 *   keyword: BM25 over the query's best BM25 (so 0 is "no match"), times the
 *   square root of the item's coverage (the share of the query's term
 *   weight it holds), so one common word shared is a weak keyword hit.
 *   meaning: cosine min-max scaled over the leg's candidates.
 *   The keyword leg's weight slides with the keyword evidence: from
 *   `weakKeyword` when no item holds any of the query's term weight to
 *   `keyword` when one holds all of it; the meaning leg gets the rest, so it
 *   leads when the words barely match and only tips close calls when they do.
 * - 'rrf': weighted reciprocal rank fusion, weight / (k + rank).
 *
 * Which one and its weights were chosen on BEIR SciFact's train queries
 * (bench/quality.ts --sweep; docs/search-quality.md). With a weak sentence
 * encoder the keyword leg must dominate so hybrid never falls below keyword
 * alone, while a paraphrase found only by meaning still ranks.
 */
export interface FusionWeights {
  /** The keyword leg's share when an item holds all of the query's term weight (convex); its RRF weight (rrf). */
  keyword: number;
  /** The meaning leg's RRF weight (rrf only: in convex it gets what the keyword leg leaves). */
  vector: number;
  /** Convex only: the keyword leg's share when no item holds any of the query's term weight. */
  weakKeyword?: number;
  /** The RRF constant (rrf only): larger flattens the contribution of top ranks. */
  k: number;
  /** Default 'rrf'. */
  method?: 'rrf' | 'convex';
}

/**
 * Tuned on SciFact train and the LoCoMo conversations (docs/search-quality.md):
 * keyword 0.85 at full evidence as SciFact chose, sliding down to 0.4 when the
 * words barely match.
 */
export const DEFAULT_FUSION: FusionWeights = { method: 'convex', keyword: 0.85, weakKeyword: 0.4, vector: 0.15, k: 60 };

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
  const convex = weights.method === 'convex';
  const keywordWeight = convex ? keywordShare(keyword, weights) : weights.keyword;
  const vectorWeight = convex ? 1 - keywordWeight : weights.vector;
  const [keywordScores, vectorScores, maxScore] = convex
    ? [keywordEvidence(keyword), minMaxNormalized(vector), 1]
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
  add(keyword, keywordScores, keywordWeight, true);
  add(vector, vectorScores, vectorWeight, false);
  return [...byItem.values()]
    .map((item) => ({ ...item, score: maxScore > 0 ? Math.min(1, Math.max(0, item.score / maxScore)) : 0 }))
    .sort((a, b) => b.score - a.score || (a.itemId < b.itemId ? -1 : 1));
}

const reciprocalRanks = (hits: readonly PassageHit[], k: number) => hits.map((_, rank) => 1 / (k + rank + 1));

const coverage = (hit: PassageHit) => Math.min(1, Math.max(0, hit.coverage ?? 1));

/**
 * BM25 over the query's best (0 stays "not found"), times the square root of
 * the item's coverage: the order within the leg barely moves (BM25 already
 * weighs rare words), but a best hit that holds little of the query no longer
 * scores 1.
 */
export function keywordEvidence(hits: readonly PassageHit[]): number[] {
  const max = Math.max(...hits.map((h) => h.rawScore));
  return hits.map((h) => (max > 0 ? h.rawScore / max : 1) * Math.sqrt(coverage(h)));
}

/**
 * The keyword leg's share of a convex fusion: `keyword` when an item holds
 * all of the query's term weight, down to `weakKeyword` when none holds any.
 * The shares sum to 1 with the meaning leg's, so the score stays in [0, 1].
 */
export function keywordShare(hits: readonly PassageHit[], weights: FusionWeights): number {
  const full = weights.keyword / (weights.keyword + weights.vector);
  if (!hits.length) return 0;
  const weak = Math.min(full, weights.weakKeyword ?? full);
  const strength = Math.max(...hits.map(coverage));
  return weak + (full - weak) * strength;
}

/** Scores stretched to [0, 1] over this query's candidates (cosines bunch together). */
function minMaxNormalized(hits: readonly PassageHit[]): number[] {
  const raw = hits.map((h) => h.rawScore);
  const min = Math.min(...raw);
  const max = Math.max(...raw);
  return raw.map((s) => (max > min ? (s - min) / (max - min) : 1));
}
