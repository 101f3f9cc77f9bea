import type { Metadata } from './metadata.js';
import type { ItemKind, PassageHit } from './model.js';

/**
 * Hybrid ranking: the keyword leg (BM25) and the meaning leg (cosine) are
 * fused over items (a document, a message, a creation): each item counts at
 * its best passage in each leg. Two fusions are available:
 *
 * - 'convex': a weighted sum of each leg's scores normalized per query
 *   (BM25 over the query's best BM25, so 0 is "no match"; cosine min-max
 *   scaled over the leg's candidates). It keeps how far apart the scores
 *   are, which rank fusion throws away. The keyword leg's weight follows the
 *   keyword evidence: the best coverage among its hits (the share of the
 *   query's term weight an item holds). A query whose best keyword hit holds
 *   one common word of it gets `weakKeyword` and the meaning leg leads; one
 *   whose best hit holds `fullCoverage` of it or more gets `keyword`, and the
 *   meaning leg only tips close calls.
 * - 'rrf': weighted reciprocal rank fusion, weight / (k + rank).
 *
 * Which one and its weights were chosen on BEIR SciFact's train queries
 * (bench/quality.ts --sweep; docs/search-quality.md). With a weak sentence
 * encoder the keyword leg must dominate so hybrid never falls below keyword
 * alone, while a paraphrase found only by meaning still ranks.
 */
export interface FusionWeights {
  /**
   * Each leg's weight (rrf); in convex, their weights when the keyword
   * evidence is full (the keyword leg's share is keyword / (keyword + vector)).
   */
  keyword: number;
  vector: number;
  /** Convex only: the keyword leg's share when no item holds any of the query's term weight... */
  weakKeyword?: number;
  /** ...growing to `keyword` as the best item's coverage reaches this (convex only; default 1). */
  fullCoverage?: number;
  /** The RRF constant (rrf only): larger flattens the contribution of top ranks. */
  k: number;
  /** Default 'rrf'. */
  method?: 'rrf' | 'convex';
}

/**
 * Tuned on SciFact train and the LoCoMo conversations (docs/search-quality.md):
 * keyword 0.85 when the words match well, as SciFact chose, down to 0.2 when
 * the best keyword hit holds little of the query.
 */
export const DEFAULT_FUSION: FusionWeights = {
  method: 'convex',
  keyword: 0.85,
  weakKeyword: 0.1,
  fullCoverage: 0.3,
  vector: 0.15,
  k: 60,
};

export interface FusedItem {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  contentDate: string;
  /** The passage that represents the item: the keyword leg's best when it found it. */
  passageText: string;
  /** That passage's first and last line in the item's text (1-based). */
  lineStart: number;
  lineEnd: number;
  score: number;
  fromKeyword: boolean;
  metadata: Metadata;
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
    : [
        reciprocalRanks(keyword, weights.k),
        reciprocalRanks(vector, weights.k),
        (weights.keyword + weights.vector) / (weights.k + 1),
      ];

  const byItem = new Map<string, FusedItem>();
  const add = (hits: PassageHit[], scores: number[], weight: number, byWords: boolean) => {
    hits.forEach((hit, i) => {
      const contribution = weight * scores[i]!;
      // Found through its neighbours' words only, an item did not match the query's words itself.
      const fromKeyword = byWords && !hit.viaContext;
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
          lineStart: hit.passage.lineStart,
          lineEnd: hit.passage.lineEnd,
          score: contribution,
          fromKeyword,
          metadata: hit.metadata ?? {},
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

/**
 * How much a past chat's question or reply, or a creation built from
 * documents, counts beside the documents themselves in a search (API
 * search only; chat retrieves documents alone). Such an item repeats or asks
 * about what a document holds, and a short one outranks the document by
 * words (BM25 favours short texts): for "dentist", the question "When is the
 * dentist?" came before the note of the appointment. At 0.8 a document that
 * matches about as well comes first, while a chat that alone matches the
 * query still leads (docs/api-notes.md, "Search ranking").
 */
export const DERIVED_ITEM_WEIGHT = 0.8;

const derived = (kind: ItemKind) => kind === 'chat' || kind === 'creation';

/**
 * The ranking with documents before what was derived from them at a like
 * score (DERIVED_ITEM_WEIGHT). The first result keeps the best score, so a
 * query that only a chat matches scores as it did.
 */
export function sourcesFirst(ranked: readonly FusedItem[]): FusedItem[] {
  const weighed = ranked
    .map((item) => (derived(item.kind) ? { ...item, score: item.score * DERIVED_ITEM_WEIGHT } : item))
    .sort((a, b) => b.score - a.score || (a.itemId < b.itemId ? -1 : 1));
  const best = ranked[0]?.score ?? 0;
  const lead = weighed[0]?.score ?? 0;
  return lead > 0 && lead < best ? weighed.map((item) => ({ ...item, score: (item.score * best) / lead })) : weighed;
}

const reciprocalRanks = (hits: readonly PassageHit[], k: number) => hits.map((_, rank) => 1 / (k + rank + 1));

const coverage = (hit: PassageHit) => Math.min(1, Math.max(0, hit.coverage ?? 1));

/** Scores over the best one: BM25 is 0 for no match, so 0 stays "not found". */
export function keywordEvidence(hits: readonly PassageHit[]): number[] {
  const max = Math.max(...hits.map((h) => h.rawScore));
  return hits.map((h) => (max > 0 ? h.rawScore / max : 1));
}

/**
 * The keyword leg's share of a convex fusion, from the best coverage among
 * its hits: `weakKeyword` at 0, `keyword` (over keyword + vector) from
 * `fullCoverage` up, along a square in between, so a hit on one common word
 * (coverage 0.1-0.2) leaves the lead to meaning while a long query whose best
 * document holds half its term weight still counts as a strong match. The
 * shares sum to 1 with the meaning leg's, so the score stays in [0, 1].
 * (Scaling each hit by its own coverage too cost 0.01-0.03 nDCG@10 on SciFact
 * train: BM25 already weighs rare words within the leg.)
 */
export function keywordShare(hits: readonly PassageHit[], weights: FusionWeights): number {
  if (!hits.length) return 0;
  const full = weights.keyword / (weights.keyword + weights.vector);
  const weak = Math.min(full, weights.weakKeyword ?? full);
  const best = Math.max(...hits.map(coverage));
  const strength = Math.min(1, best / (weights.fullCoverage ?? 1)) ** 2;
  return weak + (full - weak) * strength;
}

/** Scores stretched to [0, 1] over this query's candidates (cosines bunch together). */
function minMaxNormalized(hits: readonly PassageHit[]): number[] {
  const raw = hits.map((h) => h.rawScore);
  const min = Math.min(...raw);
  const max = Math.max(...raw);
  return raw.map((s) => (max > min ? (s - min) / (max - min) : 1));
}
