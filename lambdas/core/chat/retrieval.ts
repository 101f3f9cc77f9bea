import type { Filter } from '../filter.js';
import type { Metadata } from '../metadata.js';
import { DOCUMENT_KINDS, type ItemKind, type LibraryRef, type Passage, type PassageHit } from '../model.js';
import type { SearchService } from '../search.js';
import { withAnswerKinds } from './answer-kinds.js';
import { type CosineScale, onReferenceScale } from './calibration.js';
import { artifactIntent, categoryOf } from './intent.js';
import {
  DEFAULT_ADMIT,
  DEFAULT_NOISE,
  DEFAULT_SUPPORT,
  isSupported,
  type SupportSignals,
  type SupportThresholds,
  termCoverage,
  termWeights,
} from './relevance.js';
import {
  namesASubject,
  namesJoined,
  nameTerms,
  personsAsked,
  properNameTerms,
  subjectsNamed,
  subjectTerms,
} from './subject-words.js';
import { termRarity, termSet } from './terms.js';

/** The largest share of the items turned up that may hold a proper name the word rules ask for (SupportThresholds.properNamesHeld). */
const PROPER_NAME_MOST_HELD = 1 / 3;

export interface RetrievedPassage {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  metadata: Metadata;
  /** 0 for the best item of the hybrid ranking. */
  itemRank: number;
  /** The item's hybrid score (0..1). */
  itemScore: number;
  passage: Passage;
  signals: SupportSignals;
  /** Set by selectGrounding: this passage clears the support gate itself (the others were admitted beside one that does). */
  supporting?: boolean;
}

export interface RetrievalOptions {
  /** Items of the hybrid ranking whose passages are considered. */
  maxItems: number;
  /**
   * Items whose passages go to the chat model: the best `minItems` admitted
   * items, and beyond them those scoring at least `relativeScore` of the
   * best one's hybrid score, up to `maxItems`. A close race keeps its
   * contenders, since there the relevant document is as likely the sixth as
   * the first; a clear winner is not padded with weaker ones.
   */
  grounding: { minItems: number; maxItems: number; relativeScore: number };
  /** Passages kept per item (its best by keyword and by meaning). */
  passagesPerItem: number;
  /** What one passage must clear for the question to be answered at all. */
  support: SupportThresholds;
  /** Once it is, what other passages must clear to be given to the model too. */
  admit: SupportThresholds;
  /** With a model that judges: what a passage must clear to be given to it at all (only clear noise is dropped). */
  noise: SupportThresholds;
}

export const DEFAULT_RETRIEVAL: RetrievalOptions = {
  maxItems: 15,
  grounding: { minItems: 5, maxItems: 10, relativeScore: 0.5 },
  passagesPerItem: 2,
  support: DEFAULT_SUPPORT,
  admit: DEFAULT_ADMIT,
  noise: DEFAULT_NOISE,
};

const key = (hit: Pick<PassageHit, 'itemId' | 'passage'>) => `${hit.itemId}#${hit.passage.ordinal}`;
const itemOfKey = (passageKey: string) => passageKey.slice(0, passageKey.lastIndexOf('#'));

/**
 * Retrieval for answering: the same hybrid search the API serves (both legs
 * restricted to the caller's library, fused by the same weights), but kept at
 * passage level so answers can cite lines, and gated by support.
 */
export class ChatRetriever {
  constructor(
    private readonly search: SearchService,
    private readonly options: RetrievalOptions = DEFAULT_RETRIEVAL,
    /** The embedder's cosine scale (calibration.ts): cosines are read on the reference scale the bars are written in. */
    private readonly scale: () => Promise<CosineScale | undefined> = async () => undefined,
  ) {}

  /**
   * The passages to answer from (see selectGrounding; with a model that
   * judges, every candidate that is not clear noise), the question's vector
   * and the generation they were read in.
   */
  async retrieve(
    ref: LibraryRef,
    question: string,
    options: { judging?: boolean; filter?: Filter } = {},
  ): Promise<{
    passages: RetrievedPassage[];
    questionVector: Float32Array;
    questionTokens: number;
    generation: string | null;
  }> {
    const { candidates, questionVector, questionTokens, generation } = await this.candidates(
      ref,
      question,
      options.filter,
    );
    const gate = options.judging
      ? { ...this.options, support: this.options.noise, admit: this.options.noise }
      : this.options;
    return { passages: selectGrounding(candidates, gate), questionVector, questionTokens, generation };
  }

  /**
   * For a question that joins asks (question-parts.ts) and found nothing to
   * answer from as a whole: each part that stands alone is retrieved and
   * gated on its own words, and the passages any of them grounds, in the
   * parts' order, are the evidence. Only passages read in `generation` (the
   * whole question's) are kept.
   */
  async retrieveParts(
    ref: LibraryRef,
    parts: readonly string[],
    generation: string,
    options: { judging?: boolean; filter?: Filter } = {},
  ): Promise<{ passages: RetrievedPassage[]; questionTokens: number }> {
    // The parts are searched together; their passages are taken in the parts' order.
    const found = await Promise.all(parts.map((part) => this.retrieve(ref, part, options)));
    const passages: RetrievedPassage[] = [];
    const seen = new Set<string>();
    let questionTokens = 0;
    for (const part of found) {
      questionTokens += part.questionTokens;
      if (part.generation !== generation) continue;
      for (const p of part.passages) {
        if (seen.has(key(p))) continue;
        seen.add(key(p));
        passages.push(p);
      }
    }
    return { passages, questionTokens };
  }

  /** Every candidate passage of the top items with its support signals, before the gate. */
  async candidates(
    ref: LibraryRef,
    question: string,
    /** Only documents matching it are evidence (API.md, "Filters"). */
    filter?: Filter,
  ): Promise<{
    candidates: RetrievedPassage[];
    questionVector: Float32Array;
    questionTokens: number;
    generation: string | null;
  }> {
    const {
      keywordHits,
      vectorHits,
      queryVector: questionVector,
      queryTokens: questionTokens,
      generation,
    } = await this.search.legs(ref, question, DOCUMENT_KINDS, filter);
    const items = this.search.fuse(keywordHits, vectorHits).slice(0, this.options.maxItems);
    const scale = await this.scale();
    const cosineOf = new Map(vectorHits.map((hit) => [key(hit), onReferenceScale(hit.rawScore, scale)]));
    const leadOf = cosineLeads(vectorHits.map((hit) => ({ itemId: hit.itemId, cosine: cosineOf.get(key(hit))! })));
    const questionTerms = termSet(question);
    // How rare each question word is among everything the two legs turned up.
    const pool = new Map<string, Set<string>>();
    // The same passages holding the words they answer by what they state (answer-kinds.ts): read only by the
    // rule that also asks that no rare word be missed, so "what did the hotel in Porto cost" is not answered by
    // a Lisbon hotel's price on "hotel" and "cost" alone.
    const answering = new Map<string, Set<string>>();
    // For a request for the things of a kind, the passages of that kind: they state what it states and hold
    // the words of its subject, if it names one.
    const category = categoryOf(question);
    const stating = new Set<string>();
    // The words naming what the question is about: a passage missing none of them (or naming each in other
    // words, subject-words.ts) is about it.
    const subject = subjectTerms(question);
    // Each passage's text with its title: its words are the item's as much as the passage's are.
    const textOf = new Map<string, string>();
    for (const hit of [...keywordHits, ...vectorHits]) {
      if (pool.has(key(hit))) continue;
      const text = `${hit.title ?? ''}\n${hit.passage.text}`;
      textOf.set(key(hit), text);
      const terms = termSet(text);
      pool.set(key(hit), terms);
      answering.set(
        key(hit),
        new Set([...withAnswerKinds(terms, text), ...subjectsNamed(subject, terms, text, 'main', questionTerms)]),
      );
      if (category && [...category.subject].every((t) => terms.has(t)) && category.isStatedIn(text))
        stating.add(key(hit));
    }
    const weights = termWeights(questionTerms, [...pool.values()]);
    // Weights times how rare each word is in everyday English: what the question is about.
    const rarity = termRarity(question);
    const tellingWeights = termWeights(questionTerms, [...answering.values()], rarity);
    // The question's names ("Liam") that some passage holds: a passage lacking one is about somebody else.
    const heldByAny = (term: string) => [...pool.values()].some((terms) => terms.has(term));
    const namesInLibrary = [...nameTerms(question)].filter(heldByAny);
    // Of those, the proper names ("Ava") few items hold: lacking one, a passage is about somebody else even for
    // the word rules. A name most items hold is everywhere (a conversation's speakers), and tells nothing apart.
    const itemsTurnedUp = new Set([...pool.keys()].map(itemOfKey)).size;
    const itemsHolding = (term: string) =>
      new Set([...pool].filter(([, terms]) => terms.has(term)).map(([passage]) => itemOfKey(passage))).size;
    // Only the passages holding one of those names are read for how they write it.
    const textsHoldingNames = [...pool]
      .filter(([, terms]) => namesInLibrary.some((t) => terms.has(t)))
      .map(([passage]) => textOf.get(passage)!);
    const properNames = namesInLibrary.length ? properNameTerms(question, textsHoldingNames) : new Set<string>();
    const properNamesInLibrary = namesInLibrary.filter(
      (t) => properNames.has(t) && itemsHolding(t) <= Math.max(1, itemsTurnedUp * PROPER_NAME_MOST_HELD),
    );
    // A person asked about by first name whom nothing turned up names: the library holds nothing about them
    // (about any of them, for people asked about together: "is Emma's or Mia's party first").
    const persons = personsAsked(question);
    const unnamed = [...persons].filter((t) => !heldByAny(t));
    const someoneUnnamed = namesJoined(question, persons) ? unnamed.length === persons.size : unnamed.length > 0;
    // Names asked about together ("Ava's or Oliver's"): a passage holding one of them is about one asked about.
    const lacksProperName = namesJoined(question, new Set(properNamesInLibrary))
      ? (answers: ReadonlySet<string>) => properNamesInLibrary.every((t) => !answers.has(t))
      : (answers: ReadonlySet<string>) => properNamesInLibrary.some((t) => !answers.has(t));
    const figures = ['table', 'chart'].includes(artifactIntent(question) ?? '');
    const closestStating = Math.max(
      ...vectorHits.filter((hit) => stating.has(key(hit))).map((hit) => cosineOf.get(key(hit))!),
    );

    const out: RetrievedPassage[] = [];
    items.forEach((item, itemRank) => {
      const seen = new Set<string>();
      for (const hit of [
        ...keywordHits.filter((h) => h.itemId === item.itemId).slice(0, 2),
        ...vectorHits.filter((h) => h.itemId === item.itemId).slice(0, 2),
      ]) {
        if (seen.has(key(hit))) continue;
        seen.add(key(hit));
        const { coverage, matched } = termCoverage(questionTerms, pool.get(key(hit))!, weights);
        const answers = answering.get(key(hit))!;
        const telling = termCoverage(questionTerms, answers, tellingWeights, rarity);
        const missed = [...subject].filter((t) => !answers.has(t));
        out.push({
          itemId: hit.itemId,
          kind: hit.kind,
          title: hit.title,
          sourceRef: hit.sourceRef,
          metadata: hit.metadata ?? {},
          itemRank,
          itemScore: item.score,
          passage: hit.passage,
          signals: {
            coverage,
            matchedTerms: matched,
            questionTerms: questionTerms.size,
            tellingCoverage: telling.coverage,
            missedRarity: telling.missedRarity,
            ...(subject.size
              ? {
                  missesSubject: missed.length > 0,
                  missedSubjectRarity: Math.max(0, ...missed.map((t) => rarity.get(t) ?? 1)),
                  // A passage lacking a name lacks it in its terms too, so any passage holding it is another one.
                  missesName: namesInLibrary.some((t) => !answers.has(t)),
                  ...(lacksProperName(answers) ? { missesProperName: true } : {}),
                  namesNoSubject: !namesASubject(subject, pool.get(key(hit))!, textOf.get(key(hit))!),
                }
              : {}),
            cosine: cosineOf.get(key(hit)) ?? null,
            figuresWanted: figures && /\p{N}/u.test(hit.passage.text),
            cosineLead: leadOf.get(hit.itemId),
            ...(stating.has(key(hit)) && cosineOf.has(key(hit))
              ? { categoryLead: cosineOf.get(key(hit))! - closestStating }
              : {}),
            ...(hit.viaContext ? { viaContext: true } : {}),
            ...(someoneUnnamed ? { asksAboutSomeoneUnnamed: true } : {}),
          },
        });
      }
    });
    return { candidates: out, questionVector, questionTokens, generation };
  }
}

/** Each item's lead in meaning (SupportSignals.cosineLead): its best cosine less the best of any other item. */
function cosineLeads(hits: ReadonlyArray<{ itemId: string; cosine: number }>): Map<string, number> {
  const best = new Map<string, number>();
  for (const { itemId, cosine } of hits) best.set(itemId, Math.max(best.get(itemId) ?? -1, cosine));
  const [first, second] = [...best.values()].sort((a, b) => b - a);
  const leads = new Map<string, number>();
  for (const [itemId, cosine] of best) leads.set(itemId, cosine === first ? cosine - (second ?? 0) : cosine - first!);
  return leads;
}

const strength = (c: RetrievedPassage) => c.signals.coverage + (c.signals.cosine ?? 0);

/**
 * From the candidates, the passages to answer from, best item first; none
 * when no passage clears the support gate (the library holds nothing
 * relevant). Items keep their hybrid order. (Reordering them by how much of
 * the question they hold helped under the earlier rank fusion, +5 points on
 * SciFact train; under the score fusion it no longer did, so it went.)
 */
export function selectGrounding(
  candidates: readonly RetrievedPassage[],
  options: RetrievalOptions = DEFAULT_RETRIEVAL,
): RetrievedPassage[] {
  if (!candidates.some((c) => isSupported(c.signals, options.support))) return [];
  const byItem = new Map<string, RetrievedPassage[]>();
  for (const c of candidates.filter((c) => isSupported(c.signals, options.admit))) {
    byItem.set(c.itemId, [
      ...(byItem.get(c.itemId) ?? []),
      { ...c, supporting: isSupported(c.signals, options.support) },
    ]);
  }
  const { minItems, maxItems, relativeScore } = options.grounding;
  const items = [...byItem.values()].sort((a, b) => a[0]!.itemRank - b[0]!.itemRank);
  const bar = relativeScore * (items[0]?.[0]?.itemScore ?? 0);
  return items
    .filter((item, i) => i < minItems || item[0]!.itemScore >= bar)
    .slice(0, maxItems)
    .flatMap((item) =>
      item
        .sort((a, b) => strength(b) - strength(a))
        .slice(0, options.passagesPerItem)
        .sort((a, b) => a.passage.ordinal - b.passage.ordinal),
    );
}
