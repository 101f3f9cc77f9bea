/**
 * When does a retrieved passage support an answer? Hybrid ranking is by rank,
 * so the best of an unrelated library still ranks first; this gate asks for
 * absolute evidence instead: the passage holds most of what is distinctive in
 * the question (its content words weighted by how rare they are among the
 * passages the search turned up, so "water" counts little in a library where
 * every passage has it and "cactus" counts a lot), or it is very close in
 * meaning. A question that no passage clears gets the "not in your library"
 * reply and no sources.
 *
 * The thresholds were tuned on BEIR SciFact (bench/chat.ts): train claims
 * against their relevant abstracts, and questions the corpus does not hold;
 * then the coverage bar was lowered on the LoCoMo conversations
 * (bench/memory.ts), where a question shares fewer words with its answer,
 * while SciFact's absent questions stayed refused (docs/chat.md).
 */
export interface SupportThresholds {
  /** Share of the question's term weight the passage must hold... */
  minCoverage: number;
  /** ...with at least this many distinct question terms (when the question has that many). */
  minMatchedTerms: number;
  /**
   * Or: this share of the term weight counted with each word's rarity in
   * everyday English (`tellingCoverage`), however few terms, when every
   * term the passage misses is a word people say all the time (its rarity,
   * word-rarity.ts, at most `maxMissedRarity`): a passage holding the
   * question's telling words ("where did I leave the spare key" over "Spare
   * key is under the blue pot"), not one missing a name or a rare word
   * ("the capital city of Australia" over a passage on a capital city).
   */
  minCoverageAlone: number;
  maxMissedRarity: number;
  /**
   * Or: a passage holding every word of the question that names a thing
   * (its nouns and names, `missesSubject`) and missing only words people say
   * all the time (at most `maxMissedRarity`): "which sofa did we pick" over
   * "went with the grey sofa from DFS", where "pick" is the only word missed.
   */
  subjectHeld: boolean;
  /** Or: cosine similarity at which meaning alone is enough... */
  minCosine: number;
  /** ...or a lower cosine together with this much term weight. */
  minCosineWithTerms: number;
  minCoverageWithCosine: number;
  /** Or: at least two terms and this share of the question's distinct terms (a paraphrase in a small library)... */
  minShare: number;
  /** ...holding at least this much of the term weight. */
  minCoverageWithShare: number;
  /**
   * Or, for a table or chart request: a passage that holds numbers at this
   * cosine. Such a request names its subject loosely ("the fruit prices" over
   * a list of apples and plums), and its other words only say what to make.
   */
  minCosineForFigures: number;
  /**
   * Or: the item that stands out in meaning (cosineLead) by at least `lead`
   * at a cosine of at least `cosine`, for any of these tiers: the further it
   * stands out, the less close it need be.
   */
  leadTiers: ReadonlyArray<{ lead: number; cosine: number }>;
  /**
   * ...when the passage names one of the question's subjects, if it names
   * any (`namesNoSubject`): in a library of a few notes the closest may
   * stand out only by being about the same sort of thing ("how much is the
   * council tax" over the rent's note, "when is my eye test" over a
   * haircut's), while one that answers in other words still names what is
   * asked about, or a kind of it ("why did I quit the gym" over "Cancelled
   * the PureGym membership"). Nor when it misses a name the question asks
   * about that another passage holds (`missesName`: "how much did Liam's
   * dentist visit cost" over Maya's dentist appointment, beside Liam's
   * football).
   */
  leadNamesSubject: boolean;
  /**
   * The rules on words alone, or words with some meaning (`minCoverage`
   * with `minMatchedTerms`, `minShare`, some words at `minCosineWithTerms`),
   * pass no passage that lacks a proper name the question asks about and
   * another passage holds (`missesProperName`): "how much are Ava's piano
   * lessons" shares "piano" and "lessons" with the note on Oliver's, and is
   * about somebody else. And no rule passes any passage when the question
   * asks about a person by a first name no passage names
   * (`asksAboutSomeoneUnnamed`): "what's Mia's swim fee" is not answered
   * from Noah's swimming lessons in a library that never mentions Mia.
   */
  properNamesHeld: boolean;
  /**
   * Or: at least two terms and this share of the question's distinct terms,
   * holding `coverage` of the weight, at `cosine` or more, missing no word
   * naming a thing that people do not say all the time (rarity above
   * `maxMissedRarity`): "how much was the taxi to St Pancras" holds two of
   * three words of a note on the Eurostar from St Pancras, and is about
   * something else.
   */
  shareWithCosine: { share: number; coverage: number; cosine: number } | null;
  /**
   * Or, for a request naming only a kind of thing ("list the appointments I
   * have coming up", category-requests.ts): a passage stating what such a
   * thing states (a time, an amount) at this cosine, no further than `band`
   * below the closest such passage. Nothing else of the request picks the
   * notes: the closest of those that state it are the ones of its kind.
   */
  category: { cosine: number; band: number } | null;
  /**
   * Or: a short memory found through the words of the memories captured
   * around it (core/memory-context.ts). Never enough to answer at all; once
   * an answer is grounded, such a turn often holds what was asked ("Alright,
   * see you tomorrow!" dates the visit the turns before it planned).
   */
  acceptsContext: boolean;
}

export const DEFAULT_SUPPORT: SupportThresholds = {
  minCoverage: 0.3,
  minMatchedTerms: 3,
  minCoverageAlone: 0.6,
  maxMissedRarity: 0.6,
  subjectHeld: true,
  minCosine: 0.58,
  minCosineWithTerms: 0.5,
  minCoverageWithCosine: 0.35,
  minShare: 0.7,
  minCoverageWithShare: 0.5,
  minCosineForFigures: 0.45,
  leadTiers: [
    { lead: 0.105, cosine: 0.3 },
    { lead: 0.095, cosine: 0.4 },
  ],
  leadNamesSubject: true,
  properNamesHeld: true,
  shareWithCosine: { share: 0.6, coverage: 0.5, cosine: 0.35 },
  category: { cosine: 0.2, band: 0.15 },
  acceptsContext: false,
};

/**
 * With a model that judges (ChatModel.judges), the gate only drops clear
 * noise: a passage goes to the model when it shares a content word with the
 * question or is at least loosely related in meaning; the model decides
 * whether the passages answer.
 */
export const DEFAULT_NOISE: SupportThresholds = {
  minCoverage: 0,
  minMatchedTerms: 1,
  minCoverageAlone: 0,
  maxMissedRarity: 1,
  subjectHeld: true,
  minCosine: 0.3,
  minCosineWithTerms: 0.3,
  minCoverageWithCosine: 0,
  minShare: 1,
  minCoverageWithShare: 1,
  minCosineForFigures: 0.3,
  leadTiers: [],
  leadNamesSubject: false,
  properNamesHeld: false,
  shareWithCosine: null,
  category: { cosine: 0.2, band: 0.25 },
  acceptsContext: true,
};

/** Once one passage supports an answer, the other passages that may be cited beside it. */
export const DEFAULT_ADMIT: SupportThresholds = {
  minCoverage: 0.2,
  minMatchedTerms: 1,
  minCoverageAlone: 0.2,
  maxMissedRarity: 1,
  subjectHeld: true,
  minCosine: 0.4,
  minCosineWithTerms: 0.3,
  minCoverageWithCosine: 0.1,
  minShare: 0.4,
  minCoverageWithShare: 0.2,
  minCosineForFigures: 0.4,
  leadTiers: [{ lead: 0.05, cosine: 0.3 }],
  leadNamesSubject: false,
  properNamesHeld: false,
  shareWithCosine: null,
  category: { cosine: 0.1, band: 0.25 },
  acceptsContext: true,
};

export interface SupportSignals {
  /** Weight of the question terms found in the passage / weight of all question terms. */
  coverage: number;
  matchedTerms: number;
  questionTerms: number;
  /** Like `coverage`, each term's weight also times how rare its word is in everyday English (termWeights with rarity). */
  tellingCoverage?: number;
  /** How rare (word-rarity.ts) the rarest question term the passage misses is: 0 when it holds them all. */
  missedRarity?: number;
  /** The passage misses a question word that names a thing (subject-words.ts); absent when the question names none. */
  missesSubject?: boolean;
  /**
   * How rare (word-rarity.ts) the rarest of those words the passage misses
   * is, named in other words or not: 0 when it misses none; absent when the
   * question names none.
   */
  missedSubjectRarity?: number;
  /**
   * The question names someone or something no dictionary knows ("Liam")
   * that the passage lacks and another passage holds: the passage is about
   * somebody else. Absent when the question names no thing at all.
   */
  missesName?: boolean;
  /**
   * The question asks about someone by a proper name (subject-words.ts
   * properNameTerms: "Ava") that the passage lacks and another passage
   * holds. Absent when it does not.
   */
  missesProperName?: boolean;
  /**
   * The question asks about a person by first name, written as a person's
   * ("Mia's", "with Tom"; subject-words.ts personsAsked), and no passage the
   * search turned up names them. Absent when it does not.
   */
  asksAboutSomeoneUnnamed?: boolean;
  /**
   * The question names things and the passage names none of them, nor a
   * kind of one (subject-words.ts namesASubject); absent when the question
   * names none.
   */
  namesNoSubject?: boolean;
  /** Cosine similarity to the question, when the meaning leg scored this passage. */
  cosine: number | null;
  /** The question asks for a table or a chart and the passage holds a number. */
  figuresWanted?: boolean;
  /** The keyword leg found the passage's item only through its neighbours' words (core/memory-context.ts). */
  viaContext?: boolean;
  /**
   * How far the passage's item stands out in meaning: its best cosine less
   * the best cosine of any other item (negative for every item but the
   * closest). In a small library of notes the one that answers stands out;
   * for a question the library does not hold, every note is about as far.
   */
  cosineLead?: number;
  /**
   * For a request naming only a kind of thing, on a passage that states what
   * such a thing states: its cosine less the best cosine of any such passage
   * (0 for the closest). Absent otherwise.
   */
  categoryLead?: number;
}

/**
 * Inverse document frequency of each question term over a pool of passages'
 * term sets, times how rare its word is in everyday English when `rarity`
 * is given (terms.ts termRarity): a word every passage has proves little,
 * and so does a word everybody says.
 */
export function termWeights(
  questionTerms: ReadonlySet<string>,
  pool: ReadonlyArray<ReadonlySet<string>>,
  rarity?: ReadonlyMap<string, number>,
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of questionTerms) {
    let df = 0;
    for (const terms of pool) if (terms.has(term)) df += 1;
    weights.set(term, Math.log((pool.length + 1) / (df + 0.5)) * (rarity?.get(term) ?? 1));
  }
  return weights;
}

/**
 * The share of the question's term weight a passage holds, how many of its
 * terms, and how rare the rarest term it misses is (`rarity` as in
 * termWeights; 1 for any term missed when not given, 0 when none is missed).
 */
export function termCoverage(
  questionTerms: ReadonlySet<string>,
  passageTerms: ReadonlySet<string>,
  weights?: ReadonlyMap<string, number>,
  rarity?: ReadonlyMap<string, number>,
): { coverage: number; matched: number; missedRarity: number } {
  if (!questionTerms.size) return { coverage: 0, matched: 0, missedRarity: 0 };
  let matched = 0;
  let have = 0;
  let total = 0;
  let missedRarity = 0;
  for (const term of questionTerms) {
    const w = weights?.get(term) ?? 1;
    total += w;
    if (passageTerms.has(term)) {
      matched += 1;
      have += w;
    } else {
      missedRarity = Math.max(missedRarity, rarity?.get(term) ?? 1);
    }
  }
  return { coverage: total > 0 ? have / total : 0, matched, missedRarity };
}

export function isSupported(signals: SupportSignals, thresholds: SupportThresholds = DEFAULT_SUPPORT): boolean {
  if (thresholds.properNamesHeld && signals.asksAboutSomeoneUnnamed) return false;
  const enoughTerms = signals.matchedTerms >= Math.min(thresholds.minMatchedTerms, signals.questionTerms);
  // Words shared with a note about somebody else prove nothing about the one asked about.
  const wordsProve = !(thresholds.properNamesHeld && signals.missesProperName);
  if (wordsProve && signals.coverage >= thresholds.minCoverage && enoughTerms) return true;
  if (
    signals.matchedTerms > 0 &&
    (signals.tellingCoverage ?? 0) >= thresholds.minCoverageAlone &&
    (signals.missedRarity ?? 1) <= thresholds.maxMissedRarity
  )
    return true;
  if (
    thresholds.subjectHeld &&
    signals.matchedTerms > 0 &&
    signals.missesSubject === false &&
    (signals.missedRarity ?? 1) <= thresholds.maxMissedRarity
  )
    return true;
  const cosine = signals.cosine ?? 0;
  if (cosine >= thresholds.minCosine) return true;
  if (signals.figuresWanted && cosine >= thresholds.minCosineForFigures) return true;
  const lead = signals.cosineLead ?? -1;
  if (
    !(thresholds.leadNamesSubject && signals.missesName) &&
    !(thresholds.leadNamesSubject && signals.namesNoSubject) &&
    thresholds.leadTiers.some((tier) => lead >= tier.lead && cosine >= tier.cosine)
  )
    return true;
  if (signals.viaContext && thresholds.acceptsContext) return true;
  const category = thresholds.category;
  if (
    category &&
    signals.categoryLead !== undefined &&
    cosine >= category.cosine &&
    signals.categoryLead >= -category.band
  )
    return true;
  const share = signals.questionTerms ? signals.matchedTerms / signals.questionTerms : 0;
  if (
    wordsProve &&
    signals.matchedTerms >= 2 &&
    share >= thresholds.minShare &&
    signals.coverage >= thresholds.minCoverageWithShare
  )
    return true;
  const sharing = thresholds.shareWithCosine;
  if (
    sharing &&
    (signals.missedSubjectRarity ?? 0) <= thresholds.maxMissedRarity &&
    signals.matchedTerms >= 2 &&
    share >= sharing.share &&
    signals.coverage >= sharing.coverage &&
    cosine >= sharing.cosine
  )
    return true;
  return (
    wordsProve &&
    signals.matchedTerms > 0 &&
    signals.coverage >= thresholds.minCoverageWithCosine &&
    cosine >= thresholds.minCosineWithTerms
  );
}
