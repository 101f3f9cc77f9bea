import { MEMORY_CONTEXT } from '../../core/memory-context.js';
import type { Metadata } from '../../core/metadata.js';
import type { ItemKind, LibraryRef, PassageHit } from '../../core/model.js';
import type { KeywordQuery, VectorQuery } from '../../core/ports.js';
import { keywordQueryText } from '../../core/query-terms.js';
import { DERIVED_FILTER_FIELDS, filterClauses } from './opensearch-filter.js';
import {
  generationFilter,
  type Hit,
  type IndexRequests,
  libraryFilter,
  SEARCH_QS,
} from './opensearch-index-requests.js';

/**
 * The OpenSearch search index's two search legs over the passages index:
 * BM25 on the passages' words (the short memories' context counted less)
 * and k-NN on their vectors, each with the library, generation, kind and
 * caller's filters inside the query, and the hits read back alike. Apart
 * from the writes and the grep scan: they only read, and share their one
 * search and hit shape with each other alone.
 */

const TITLE_BOOST = 2;

/** Inner-product score of OpenSearch's faiss engine back to the cosine of unit vectors. */
export const cosineFromScore = (score: number) => (score >= 1 ? score - 1 : 1 - 1 / score);

/** A passage document as read back (the vector, context and derived filter fields left out). */
export interface PassageSource {
  item_id: string;
  kind: ItemKind;
  title: string | null;
  source_ref: string | null;
  content_date: string;
  ordinal: number;
  line_start: number;
  line_end: number;
  text: string;
  /** Absent on documents written before metadata (read as {}). */
  metadata?: Metadata;
}

/** The keyword leg's named queries: the item's own words, and its neighbours' (context). */
const OWN_WORDS = 'own';
const CONTEXT_WORDS = 'context';

const kindFilter = (kinds?: readonly ItemKind[]) => (kinds?.length ? [{ terms: { kind: [...kinds] } }] : []);

export async function keywordLeg(requests: IndexRequests, ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
  if (!query.text.trim()) return [];
  // The caller's filter is a clause of the query: BM25 ranks only the passages that match it.
  const filter = [
    ...libraryFilter(ref),
    ...generationFilter(query.generation),
    ...kindFilter(query.kinds),
    ...filterClauses(query.filter),
  ];
  // The analyzer makes a clause per term and field: a query over MAX_QUERY_TERMS terms is cut to its keyword terms (core/query-terms.ts).
  const text = keywordQueryText(query.text);
  const hits = await searchPassages(requests, 'index.keywordSearch', query.limit, {
    bool: {
      filter,
      should: [
        {
          multi_match: { query: text, fields: [`title^${TITLE_BOOST}`, 'text'], type: 'most_fields', _name: OWN_WORDS },
        },
        // A short memory's neighbours' words count less than its own (core/memory-context.ts).
        { match: { context: { query: text, boost: MEMORY_CONTEXT.weight, _name: CONTEXT_WORDS } } },
      ],
      minimum_should_match: 1,
    },
  });
  // Marked only when the response names the queries matched and its own words are not among them.
  return hits.map((hit) => ({
    ...toHit(hit, hit._score),
    ...(hit.matched_queries && !hit.matched_queries.includes(OWN_WORDS) ? { viaContext: true } : {}),
  }));
}

export async function vectorLeg(requests: IndexRequests, ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
  // Inside the k-NN filter too: an ended generation's passages never take a place among the k nearest.
  const filter = [...libraryFilter(ref), ...generationFilter(query.generation), ...kindFilter(query.kinds)];
  // The caller's filter goes inside the k-NN query (efficient filtering: the k nearest among the matching passages),
  // never after it, where it would drop some of the k and starve the page.
  const knnFilter = [...filter, ...filterClauses(query.filter)];
  const hits = await searchPassages(requests, 'index.vectorSearch', query.limit, {
    bool: {
      // The k-NN filter restricts the graph walk itself; the outer filter is a second lock on the library.
      must: [
        {
          knn: {
            embedding: { vector: Array.from(query.vector), k: query.limit, filter: { bool: { filter: knnFilter } } },
          },
        },
      ],
      filter,
    },
  });
  return hits.map((hit) => toHit(hit, cosineFromScore(hit._score)));
}

/** One search over the passages index, vectors left out of the response. */
async function searchPassages(
  requests: IndexRequests,
  operation: string,
  size: number,
  query: unknown,
): Promise<Array<Hit<PassageSource>>> {
  const body = await requests.call<{ hits: { hits: Array<Hit<PassageSource>> } }>(operation, {
    method: 'POST',
    path: `/${requests.passagesIndex}/_search`,
    querystring: SEARCH_QS,
    // Neither the vector nor a short memory's context (its neighbours' texts) is read back, nor the fields derived for filters.
    body: { size, _source: { excludes: ['embedding', 'context', ...DERIVED_FILTER_FIELDS] }, query },
  });
  return body?.hits?.hits ?? [];
}

function toHit(hit: Hit<PassageSource>, rawScore: number): PassageHit {
  const s = hit._source;
  return {
    itemId: s.item_id,
    kind: s.kind,
    title: s.title ?? null,
    sourceRef: s.source_ref ?? null,
    contentDate: s.content_date,
    passage: { ordinal: s.ordinal, lineStart: s.line_start, lineEnd: s.line_end, text: s.text },
    rawScore,
    metadata: s.metadata ?? {},
  };
}
