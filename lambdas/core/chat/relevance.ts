/**
 * When does a retrieved passage support an answer? Hybrid ranking is by rank,
 * so the best of an unrelated library still ranks first; this gate asks for
 * absolute evidence instead: the passage shares most of the question's
 * content words, or it is very close in meaning. A question that no passage
 * clears gets the "not in your library" reply and no sources.
 *
 * The thresholds were tuned on BEIR SciFact (bench/chat.ts): claims against
 * their relevant abstracts, and questions about things the corpus does not hold.
 */
export interface SupportThresholds {
  /** Share of the question's content terms the passage must contain... */
  minCoverage: number;
  /** ...and of them at least this many distinct terms (when the question has that many). */
  minMatchedTerms: number;
  /** Or: cosine similarity at which meaning alone is enough. */
  minCosine: number;
  /** With some shared terms (coverage over half of minCoverage), a lower cosine is enough. */
  minCosineWithTerms: number;
}

export const DEFAULT_SUPPORT: SupportThresholds = {
  minCoverage: 0.5,
  minMatchedTerms: 2,
  minCosine: 0.6,
  minCosineWithTerms: 0.45,
};

export interface SupportSignals {
  /** Distinct question terms found in the passage / distinct question terms. */
  coverage: number;
  matchedTerms: number;
  questionTerms: number;
  /** Cosine similarity to the question, when the meaning leg scored this passage. */
  cosine: number | null;
}

export function termCoverage(questionTerms: ReadonlySet<string>, passageTerms: ReadonlySet<string>): { coverage: number; matched: number } {
  if (!questionTerms.size) return { coverage: 0, matched: 0 };
  let matched = 0;
  for (const term of questionTerms) if (passageTerms.has(term)) matched += 1;
  return { coverage: matched / questionTerms.size, matched };
}

export function isSupported(signals: SupportSignals, thresholds: SupportThresholds = DEFAULT_SUPPORT): boolean {
  const enoughTerms = signals.matchedTerms >= Math.min(thresholds.minMatchedTerms, signals.questionTerms);
  if (signals.coverage >= thresholds.minCoverage && enoughTerms) return true;
  const cosine = signals.cosine ?? 0;
  if (cosine >= thresholds.minCosine) return true;
  return signals.coverage >= thresholds.minCoverage / 2 && signals.matchedTerms > 0 && cosine >= thresholds.minCosineWithTerms;
}
