import { type CosineScale, onReferenceScale } from './chat/calibration.js';
import { termCoverage, termWeights } from './chat/relevance.js';
import { termSet } from './chat/terms.js';
import type { PassageHit } from './model.js';

/**
 * An absolute relevance for search results (API.md "Scores and `min_score`"):
 * the hybrid ranking orders results by how they compare with each other, so
 * the best hit of any query scores 1 there; this says how relevant the best
 * result is at all, from evidence that means the same in every library and
 * with every embedder:
 * - by meaning: the result's cosine on the reference scale (calibration.ts),
 *   0 at REFERENCE 0.15 (a little above the median of unrelated texts) up to
 *   1 at 0.6 (a close paraphrase; the median answer is at 0.47);
 * - by words: the share of the query's content terms the result holds (in
 *   its passage or its title), each weighted by how rare it is among the
 *   results (core/chat/relevance.ts);
 * combined as either being enough (1 - (1 - meaning)(1 - words)); a query
 *   that says nothing an embedder can mean (meansSomething: "zzqqxxjj") has
 *   its words as its only evidence.
 * A result's score is its place in the ranking (the hybrid score) times the
 * best such relevance among the results: the order stays the ranking's, the
 * first result scores the relevance the query found, and an unrelated query
 * scores low throughout. A result the keyword leg found only through the
 * words of the memories captured beside it (core/memory-context.ts) holds
 * none of the query's words: it scores its own relevance by meaning, raised
 * only as far as the best result ranked after it (search.ts).
 */
export const MEANING_FLOOR = 0.15;
export const MEANING_FULL = 0.6;

export interface ScoredItem {
  itemId: string;
  /** The item's title: its words are the item's as much as its passage's are (the keyword leg matches both). */
  title?: string | null;
  passageText: string;
  /** The hybrid score (0..1, 1 for the best of the query). */
  score: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/** Relevance by meaning alone: a cosine on the reference scale, 0 at MEANING_FLOOR up to 1 at MEANING_FULL. */
const meaningRelevance = (referenceCosine: number): number =>
  clamp01((referenceCosine - MEANING_FLOOR) / (MEANING_FULL - MEANING_FLOOR));

/** Each item's best cosine among the meaning leg's hits, on the reference scale. */
function referenceCosines(vectorHits: readonly PassageHit[], scale: CosineScale | undefined): Map<string, number> {
  const cosineOf = new Map<string, number>();
  for (const hit of vectorHits)
    cosineOf.set(hit.itemId, Math.max(cosineOf.get(hit.itemId) ?? -1, onReferenceScale(hit.rawScore, scale)));
  return cosineOf;
}

const LETTERS = /\p{L}+/gu;
const LATIN_ONLY = /^\p{Script=Latin}+$/u;

/**
 * Whether a query says anything an embedder can mean: a word the dictionary
 * knows, or a word in another script than Latin (no dictionary here for it:
 * a multilingual embedder may well read it). Keyboard noise ("zzqqxxjj"), a
 * code or a name alone does not: its vector sits near the texts that say as
 * little ("ok", "hello?", an emoji) at cosines a paraphrase has, so only its
 * words are evidence ("GZ-777" held by a note still scores high).
 */
export async function meansSomething(q: string): Promise<boolean> {
  const words = [...q.matchAll(LETTERS)].map(([word]) => word);
  if (words.some((word) => !LATIN_ONLY.test(word))) return true;
  if (!words.length) return false;
  // Loaded on first need, not at a search function's cold start (180 KB to parse).
  const { isEnglishWord } = await import('./chat/english-words.js');
  return words.some(isEnglishWord);
}

/** How many of the first ranked results the query's relevance is read from. */
const RELEVANCE_READ_FROM = 50;

/** The query's best absolute relevance among `top` (each item's cosine on the reference scale in `cosineOf`). */
function bestRelevance(
  q: string,
  top: readonly ScoredItem[],
  cosineOf: ReadonlyMap<string, number>,
  byMeaning: boolean,
): number {
  if (!top.length) return 0;
  const question = termSet(q);
  const texts = top.map((item) => termSet(item.title ? `${item.title}\n${item.passageText}` : item.passageText));
  const weights = termWeights(question, texts);
  let best = 0;
  top.forEach((item, i) => {
    const meaning = byMeaning ? meaningRelevance(cosineOf.get(item.itemId) ?? 0) : 0;
    const { coverage, matched } = termCoverage(question, texts[i]!, weights);
    const words = matched > 0 ? coverage : 0;
    best = Math.max(best, 1 - (1 - meaning) * (1 - words));
  });
  return best;
}

/**
 * Each ranked item's absolute score: its hybrid score times the query's best
 * relevance (read from the first RELEVANCE_READ_FROM), except that an item the keyword leg found
 * only through its neighbours' words (`fromKeyword` false though the leg
 * returned it) keeps only what its own meaning says (withoutNeighbourEvidence).
 */
export function absoluteScores(
  q: string,
  ranked: ReadonlyArray<ScoredItem & { fromKeyword: boolean }>,
  keywordHits: readonly PassageHit[],
  vectorHits: readonly PassageHit[],
  scale: CosineScale | undefined,
  /** meansSomething(q): whether its meaning is evidence at all. */
  byMeaning: boolean,
): number[] {
  const cosineOf = referenceCosines(vectorHits, scale);
  const relevance = bestRelevance(q, ranked.slice(0, RELEVANCE_READ_FROM), cosineOf, byMeaning);
  const byWords = new Set(keywordHits.map((hit) => hit.itemId));
  const ownMeaning = (itemId: string) => (byMeaning ? meaningRelevance(cosineOf.get(itemId) ?? 0) : 0);
  return withoutNeighbourEvidence(
    ranked.map((item) => item.score * relevance),
    ranked.map((item) => (!item.fromKeyword && byWords.has(item.itemId) ? ownMeaning(item.itemId) : null)),
  );
}

/**
 * Ranked scores (non-increasing) with the neighbours' evidence taken out:
 * `own[i]` is the relevance by meaning of a result found by words only
 * through the memories beside it (null for any other). Such a result scores
 * its own relevance, raised only as far as the best score ranked after it:
 * the scores still fall with the ranking, and no later result is pulled down.
 */
export function withoutNeighbourEvidence(scores: readonly number[], own: readonly (number | null)[]): number[] {
  const out = [...scores];
  let below = 0; // the best score ranked after the result at hand
  for (let i = out.length - 1; i >= 0; i--) {
    const mine = own[i];
    if (mine !== null && mine !== undefined) out[i] = Math.min(out[i]!, Math.max(below, mine));
    below = out[i]!;
  }
  return out;
}
