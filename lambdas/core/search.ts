import type { CosineScale } from './chat/calibration.js';
import { excerptAround } from './chunking.js';
import { decodeCursor, encodeCursor, fingerprint, offsetUpTo, type Page } from './cursor.js';
import { type Filter, filterFingerprint } from './filter.js';
import { LIMITS } from './limits.js';
import type { Metadata } from './metadata.js';
import type { ItemKind, LibraryRef, PassageHit } from './model.js';
import type { Clock, DocumentStore, Embedder, SearchIndex } from './ports.js';
import { DEFAULT_FUSION, type FusionWeights, fuse, sourcesFirst } from './ranking.js';
import { absoluteScores, meansSomething } from './relevance-score.js';
import type { RememberedQueries } from './remembered-queries.js';
import type { UsageService } from './usage.js';

export interface SearchRequest {
  q: string;
  limit: number;
  cursor?: string;
  kinds?: readonly ItemKind[];
  /** Only results scoring at least this (0..1; API.md "Scores and `min_score`"). */
  minScore?: number;
  /** Only items matching it are searched (API.md, "Filters"). */
  filter?: Filter;
}

export interface SearchResult {
  id: string;
  kind: ItemKind;
  snippet: string;
  score: number;
  from_keyword: boolean;
  content_date: string;
  title: string | null;
  source_ref: string | null;
  metadata: Metadata;
  /** The lines of the item's text the snippet's passage covers (1-based): where to open a document at the match. */
  line_start: number;
  line_end: number;
}

export interface SearchLegs {
  keywordHits: PassageHit[];
  vectorHits: PassageHit[];
  queryVector: Float32Array;
  /** The tokens the embedder read for the query (spend). */
  queryTokens: number;
  /** The library's live generation the legs read (null: no library, nothing read), for the request's other reads. */
  generation: string | null;
}

export interface SearchOptions {
  /** Passages each leg returns; results beyond the fused top are not paged. */
  candidatesPerLeg: number;
  fusion: FusionWeights;
}

export const DEFAULT_SEARCH: SearchOptions = { candidatesPerLeg: 200, fusion: DEFAULT_FUSION };

export class SearchService {
  constructor(
    private readonly deps: {
      index: SearchIndex;
      embedder: Embedder;
      documents: Pick<DocumentStore, 'libraryGeneration'>;
      /** The embedder's cosine scale (core/chat/calibration.ts): scores mean the same with every embedder. */
      cosineScale?: () => Promise<CosineScale | undefined>;
      /** Where present, a library's recent query texts are embedded once (remembered-queries.ts). */
      rememberedQueries?: RememberedQueries;
      /**
       * Where a search's query embedding is charged to its tenant (API.md: embedding tokens are spend), as
       * the embedder reported it, remembered or not. Only `search` charges: a chat charges its own question.
       */
      spend?: { usage: Pick<UsageService, 'recordEmbedding'>; clock: Clock };
    },
    private readonly options: SearchOptions = DEFAULT_SEARCH,
  ) {}

  async search(ref: LibraryRef, request: SearchRequest): Promise<Page<SearchResult>> {
    const kinds = request.kinds?.length ? [...new Set(request.kinds)].sort() : undefined;
    const minScore = request.minScore ?? 0;
    const scope = fingerprint([
      'search',
      ref.tenantId,
      ref.endUserId,
      request.q,
      kinds ?? null,
      minScore,
      filterFingerprint(request.filter),
    ]);
    // Each leg brings at most candidatesPerLeg items, so no cursor this API issued points past twice that.
    const offset = decodeCursor(request.cursor, scope, offsetUpTo(2 * this.options.candidatesPerLeg)) ?? 0;

    const { keywordHits, vectorHits, queryTokens } = await this.legs(ref, request.q, kinds, request.filter);
    const spend = this.deps.spend;
    if (spend)
      await spend.usage.recordEmbedding({ tenantId: ref.tenantId, at: spend.clock.now(), tokens: queryTokens });
    const fused = sourcesFirst(this.fuse(keywordHits, vectorHits));
    // Absolute scores (relevance-score.ts): the ranking's order, scaled by how relevant its best result is at all;
    // an item found by words only through its neighbours' (memory-context.ts) scores what its own meaning says,
    // raised only as far as the best result ranked after it, so scores still fall with the ranking (min_score
    // keeps a prefix) and no later result is pulled down.
    const scores = absoluteScores(
      request.q,
      fused,
      keywordHits,
      vectorHits,
      await this.deps.cosineScale?.(),
      await meansSomething(request.q),
    );
    const ranked = fused.map((item, i) => ({ ...item, score: scores[i]! })).filter((item) => item.score >= minScore);
    const page = ranked.slice(offset, offset + request.limit);
    const hasMore = offset + request.limit < ranked.length;
    return {
      items: page.map((item) => ({
        id: item.itemId,
        kind: item.kind,
        snippet: excerptAround(item.passageText, 0, 0, LIMITS.snippetChars),
        score: item.score,
        from_keyword: item.fromKeyword,
        content_date: item.contentDate,
        title: item.title,
        source_ref: item.sourceRef,
        metadata: item.metadata,
        line_start: item.lineStart,
        line_end: item.lineEnd,
      })),
      hasMore,
      nextCursor: hasMore ? encodeCursor(scope, offset + request.limit) : null,
    };
  }

  /** The hybrid ranking of items for a query. */
  async rank(ref: LibraryRef, q: string, kinds?: readonly ItemKind[], filter?: Filter) {
    const { keywordHits, vectorHits } = await this.legs(ref, q, kinds, filter);
    return this.fuse(keywordHits, vectorHits);
  }

  /**
   * Both legs, run together, both restricted to the caller's library and
   * kinds, at passage level (chat cites passages), with the query's vector.
   * Both read only the library's live generation (read once, beside the
   * query embedding): an entry whose writer died before removing it after
   * an erasure is never found (ports.ts, GenerationScoped).
   */
  async legs(ref: LibraryRef, q: string, kinds?: readonly ItemKind[], filter?: Filter): Promise<SearchLegs> {
    const limit = this.options.candidatesPerLeg;
    const live = this.deps.documents.libraryGeneration(ref, { readOnly: true });
    // The query embedding starts first, so a model that runs off the main
    // thread works while the keyword leg does.
    let queryVector: Float32Array = new Float32Array(0);
    let queryTokens = 0;
    const { embedder, rememberedQueries } = this.deps;
    const embedding = rememberedQueries ? rememberedQueries.embed(ref, q, embedder) : embedder.embed([q], 'query');
    const vectorLeg = Promise.all([embedding, live]).then(
      ([
        {
          vectors: [vector],
          tokens,
        },
        generation,
      ]) => {
        queryVector = vector!;
        queryTokens = tokens;
        return generation === null
          ? []
          : this.deps.index.vectorSearch(ref, { vector: vector!, limit, kinds, generation, filter });
      },
    );
    const keywordLeg = live.then((generation) =>
      generation === null ? [] : this.deps.index.keywordSearch(ref, { text: q, limit, kinds, generation, filter }),
    );
    const [keywordHits, vectorHits] = await Promise.all([keywordLeg, vectorLeg]);
    return { keywordHits, vectorHits, queryVector, queryTokens, generation: await live };
  }

  /** Fuses the two legs with this service's weights. */
  fuse(keywordHits: readonly PassageHit[], vectorHits: readonly PassageHit[]) {
    return fuse(keywordHits, vectorHits, this.options.fusion);
  }
}
