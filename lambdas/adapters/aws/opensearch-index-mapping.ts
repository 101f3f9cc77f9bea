import { FILTER_FIELDS } from './opensearch-filter.js';
import type { IndexRequests } from './opensearch-index-requests.js';

/**
 * The OpenSearch search index's two indices as made: their settings and
 * mappings, the fields added since the first ones (put on an older index's
 * mapping), and the requests that create them or bring them up to date.
 * Apart from the index class because it is the one place the documents'
 * shape is declared; the writes and reads only follow it.
 */

/** The fields every query filters on (tenant, library, item, kind), alike in both indices. */
const LIBRARY_ITEM_FIELDS = {
  tenant_id: { type: 'keyword' },
  library: { type: 'keyword' },
  item_id: { type: 'keyword' },
  kind: { type: 'keyword' },
  /** The library generation the item was written under (docs/api-notes.md, "Erasure"). */
  generation: { type: 'keyword' },
} as const;

/** Fields added after the first indices were made: ensureIndices adds them to an older index's mapping. */
const PASSAGE_FIELDS_ADDED = {
  /** A short memory's neighbours' texts (core/memory-context.ts); only its one passage has it. */
  context: { type: 'text', analyzer: 'english' },
  /** What filters read (metadata, document kind, content type, exact title and source_ref): opensearch-filter.ts. */
  ...FILTER_FIELDS,
} as const;
const ITEM_FIELDS_ADDED = {
  /** Whether the item gets and gives context (core/memory-context.ts, isShortMemory). */
  short_memory: { type: 'boolean' },
  /** The UTF-8 size of `text`: grep fetches texts in batches of bounded size (GREP_FETCH_BYTES). */
  text_bytes: { type: 'long', index: false },
  /** What filters read, as on the passages: opensearch-filter.ts. */
  ...FILTER_FIELDS,
} as const;

export function passagesMapping(dimensions: number, shards = 1, replicas = 0) {
  return {
    settings: { index: { knn: true, number_of_shards: shards, number_of_replicas: replicas } },
    mappings: {
      dynamic: 'strict',
      properties: {
        ...LIBRARY_ITEM_FIELDS,
        title: { type: 'text', analyzer: 'english' },
        text: { type: 'text', analyzer: 'english' },
        ...PASSAGE_FIELDS_ADDED,
        source_ref: { type: 'keyword', index: false },
        content_date: { type: 'keyword' },
        ordinal: { type: 'integer' },
        line_start: { type: 'integer', index: false },
        line_end: { type: 'integer', index: false },
        embedding: {
          type: 'knn_vector',
          dimension: dimensions,
          method: {
            name: 'hnsw',
            engine: 'faiss',
            space_type: 'innerproduct',
            parameters: { m: 16, ef_construction: 128 },
          },
        },
      },
    },
  };
}

export function itemsMapping(shards = 1, replicas = 0) {
  return {
    settings: { index: { number_of_shards: shards, number_of_replicas: replicas } },
    mappings: {
      dynamic: 'strict',
      properties: {
        ...LIBRARY_ITEM_FIELDS,
        title: { type: 'keyword', index: false },
        source_ref: { type: 'keyword', index: false },
        content_date: { type: 'keyword' },
        text: { type: 'text', index: false },
        grep: { type: 'wildcard' },
        ...ITEM_FIELDS_ADDED,
      },
    },
  };
}

/**
 * Creates both indices with their mappings, or adds the newer fields to an
 * index made before them (the index class runs this once per process:
 * ensureIndices).
 */
export async function createIndices(
  requests: IndexRequests,
  options: { dimensions: number; shards?: number; replicas?: number },
): Promise<void> {
  const { shards, replicas } = options;
  for (const [index, definition, added] of [
    [requests.passagesIndex, passagesMapping(options.dimensions, shards, replicas), PASSAGE_FIELDS_ADDED],
    [requests.itemsIndex, itemsMapping(shards, replicas), ITEM_FIELDS_ADDED],
  ] as const) {
    const body = await requests.call<{ error?: { type?: string } }>(
      'index.create',
      { method: 'PUT', path: `/${index}`, body: definition },
      [400],
    );
    if (body?.error && body.error.type !== 'resource_already_exists_exception') {
      throw new Error(`index.create ${index}: ${body.error.type ?? 'failed'}`);
    }
    if (body?.error) {
      // An index made before these fields: they are added (adding a field to a mapping is always allowed).
      const properties = { generation: { type: 'keyword' }, ...added };
      await requests.call('index.mapping', { method: 'PUT', path: `/${index}/_mapping`, body: { properties } });
    }
  }
}
