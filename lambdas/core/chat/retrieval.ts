import type { Embedder, SearchIndex } from '../../ports.js';
import type { ItemKind, LibraryRef, Passage, PassageHit } from '../model.js';
import { fuse } from '../ranking.js';
import { DEFAULT_SEARCH, type SearchOptions } from '../search.js';
import { DEFAULT_SUPPORT, isSupported, termCoverage, type SupportSignals, type SupportThresholds } from './relevance.js';
import { termSet } from './terms.js';

/** What answers are built from: documents only (never past chats or creations, which are not evidence). */
export const EVIDENCE_KINDS: readonly ItemKind[] = ['file_excerpt', 'image'];

export interface RetrievedPassage {
  itemId: string;
  kind: ItemKind;
  title: string | null;
  sourceRef: string | null;
  /** 0 for the best item of the hybrid ranking. */
  itemRank: number;
  passage: Passage;
  signals: SupportSignals;
}

export interface RetrievalOptions {
  /** Items of the hybrid ranking whose passages are considered. */
  maxItems: number;
  /** Passages kept per item (its best by keyword and by meaning). */
  passagesPerItem: number;
  support: SupportThresholds;
}

export const DEFAULT_RETRIEVAL: RetrievalOptions = { maxItems: 8, passagesPerItem: 2, support: DEFAULT_SUPPORT };

const key = (hit: PassageHit) => `${hit.itemId}#${hit.passage.ordinal}`;

/**
 * Retrieval for answering: the same hybrid search the API serves (both legs
 * restricted to the caller's library, fused by the same weights), but kept at
 * passage level so answers can cite lines, and gated by support.
 */
export class ChatRetriever {
  constructor(
    private readonly deps: { index: SearchIndex; embedder: Embedder },
    private readonly search: SearchOptions = DEFAULT_SEARCH,
    private readonly options: RetrievalOptions = DEFAULT_RETRIEVAL,
  ) {}

  /** Supported passages, best item first; empty when the library holds nothing relevant. */
  async retrieve(ref: LibraryRef, question: string): Promise<RetrievedPassage[]> {
    const limit = this.search.candidatesPerLeg;
    const kinds = EVIDENCE_KINDS;
    const [keywordHits, vectorHits] = await Promise.all([
      this.deps.index.keywordSearch(ref, { text: question, limit, kinds }),
      this.deps.embedder
        .embed([question], 'query')
        .then(([vector]) => this.deps.index.vectorSearch(ref, { vector: vector!, limit, kinds })),
    ]);
    const items = fuse(keywordHits, vectorHits, this.search.fusion).slice(0, this.options.maxItems);
    const cosineOf = new Map(vectorHits.map((hit) => [key(hit), hit.rawScore]));
    const questionTerms = termSet(question);

    const retrieved: RetrievedPassage[] = [];
    items.forEach((item, itemRank) => {
      const candidates = new Map<string, PassageHit>();
      for (const hit of [...keywordHits.filter((h) => h.itemId === item.itemId).slice(0, 2),
        ...vectorHits.filter((h) => h.itemId === item.itemId).slice(0, 2)]) {
        if (!candidates.has(key(hit))) candidates.set(key(hit), hit);
      }
      const scored = [...candidates.values()].map((hit) => {
        const { coverage, matched } = termCoverage(questionTerms, termSet(`${hit.title ?? ''}\n${hit.passage.text}`));
        const signals: SupportSignals = {
          coverage, matchedTerms: matched, questionTerms: questionTerms.size, cosine: cosineOf.get(key(hit)) ?? null,
        };
        return { hit, signals, strength: coverage + (signals.cosine ?? 0) };
      });
      scored
        .filter((s) => isSupported(s.signals, this.options.support))
        .sort((a, b) => b.strength - a.strength)
        .slice(0, this.options.passagesPerItem)
        .sort((a, b) => a.hit.passage.ordinal - b.hit.passage.ordinal)
        .forEach(({ hit, signals }) =>
          retrieved.push({
            itemId: hit.itemId, kind: hit.kind, title: hit.title, sourceRef: hit.sourceRef, itemRank, passage: hit.passage, signals,
          }),
        );
    });
    return retrieved;
  }
}
