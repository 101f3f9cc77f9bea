import type { GrepScan, KeywordQuery, PutOptions, SearchIndex, VectorQuery } from '../../core/ports.js';
import type { DocumentChanges, GrepCandidate, IndexItem, ItemKind, LibraryRef, Passage, PassageHit } from '../../core/model.js';
import type { Metadata } from '../../core/metadata.js';
import { DOCUMENT_KINDS, ITEM_KINDS } from '../../core/model.js';
import { splitLines } from '../../core/chunking.js';
import { LIMITS } from '../../core/limits.js';
import { BackendUnavailableError } from '../../core/errors.js';
import { keywordQueryText } from '../../core/query-terms.js';
import { allContexts, CONTEXT_READ_EACH_SIDE, contextsAround, isShortMemory, MEMORY_CONTEXT, type ContextMemory } from '../../core/memory-context.js';
import { changedFields, DERIVED_FILTER_FIELDS, FILTER_FIELDS, filterClauses, filterFields } from './opensearch-filter.js';

/**
 * The SearchIndex port on Amazon OpenSearch Service, two indices:
 *
 * - passages: one document per passage, with BM25 text fields (`title`,
 *   `text`, and for a short memory `context`: its neighbours' texts, see
 *   core/memory-context.ts) and a `knn_vector` (faiss HNSW, inner product on
 *   unit vectors = cosine). Both search legs run here.
 * - items: one document per item with its whole text (returned to grep) and
 *   `grep`, a `wildcard` field holding the text in line-aligned segments, which
 *   narrows literal grep to the documents that can match.
 *
 * Isolation: every document carries `tenant_id` and `library`; every query
 * and every delete filters on both (on both search legs: the k-NN filter and
 * the outer bool filter).
 *
 * Filters (core/filter.ts): every document of an item, item and passages
 * alike, carries the fields a filter reads (its metadata in fixed keyword
 * fields, so the mapping stays the same size whatever keys callers use: see
 * opensearch-filter.ts). A filter is a clause of the query itself (inside
 * the k-NN query's own filter on the vector leg), so a search returns its
 * best `limit` matching passages, never fewer because better ones did not
 * match. A PATCH rewrites those fields on all of an item's documents
 * (updateItem).
 *
 * Vectors may come later: an item put with `vectors: []` has passages without
 * the `embedding` field (found by words, not by meaning), and the ingest
 * worker attaches each passage's vector by a partial update of the passage
 * document, whose id is deterministic (`<itemId>#<ordinal>`).
 */
export interface OpenSearchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
  path: string;
  body?: unknown;
  bulkBody?: unknown[];
  querystring?: Record<string, unknown>;
}

/** The one call the adapter makes: the client's transport (`client.transport`), or a fake in tests. */
export interface OpenSearchTransport {
  request(params: OpenSearchRequest, options?: { ignore?: number[] }): Promise<{ body: unknown; statusCode?: number | null }>;
}

export interface OpenSearchIndexOptions {
  /** Index names start with this (e.g. `library`). */
  prefix: string;
  dimensions: number;
  shards?: number;
  replicas?: number;
}

/** Grep segments are at most this long; a longer line is cut into pieces overlapping by the longest pattern. */
const SEGMENT_CHARS = 4096;
/** Grep candidates listed per search (ids and text sizes only: a few kB). */
const GREP_LIST_BATCH = 256;
/**
 * Text fetched per request while grep reads: up to this many bytes, or one
 * document alone (larger than that, or of an unknown size: written before
 * `text_bytes`). The core stops asking once its page budget is spent
 * (core/grep.ts), so a page fetches at most its budget plus this much or one
 * document, and a Lambda holds one such batch at a time, never a whole page.
 */
export const GREP_FETCH_BYTES = 4 * 1024 * 1024;
const GREP_FETCH_DOCUMENTS = 64;
const TITLE_BOOST = 2;
/** Reads and deletes never create an index: before the first write there is simply nothing. */
const SEARCH_QS = { ignore_unavailable: true };
/** A delete repeated this many times while concurrent writes keep changing what it matches gives up (retryable). */
const DELETE_PASSES = 5;
/** Documents of replaced items deleted within the replacing put's _bulk request (the rest by the sweep right after). */
const REPLACED_DOCUMENTS = 5_000;

/** The passage document's id: the item and the passage's ordinal, so a vector can be attached to it later. */
export const passageId = (itemId: string, ordinal: number) => `${itemId}#${ordinal}`;

type BulkItemResult = { _id?: string; status?: number; error?: { type?: string } };
type BulkResponse = { errors?: boolean; items?: Array<Record<string, BulkItemResult>> } | undefined;

/** The items of a _bulk response that failed. */
const bulkFailures = (result: BulkResponse): BulkItemResult[] =>
  result?.errors ? (result.items ?? []).map((entry) => Object.values(entry)[0]!).filter((r) => r?.error) : [];

export const libraryValue = (ref: LibraryRef) => (ref.endUserId === null ? 'S' : `U#${ref.endUserId}`);

/** Filters that confine a query to one library of one tenant. */
export const libraryFilter = (ref: LibraryRef) => [{ term: { tenant_id: ref.tenantId } }, { term: { library: libraryValue(ref) } }];

/**
 * Entries of one generation, and untagged ones (written before generations:
 * the library's first generation, removed by every generational erasure).
 * None when no generation is named.
 */
export const generationFilter = (generation?: string | null) =>
  generation != null
    ? [{ bool: { should: [{ term: { generation } }, { bool: { must_not: [{ exists: { field: 'generation' } }] } }], minimum_should_match: 1 } }]
    : [];

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

/** Sets `params.set`'s fields and removes `params.remove`'s on a document (updateItem); one source, compiled once. */
const UPDATE_FIELDS_SCRIPT =
  "for (def e : params['set'].entrySet()) { ctx._source.put(e.getKey(), e.getValue()); } for (def f : params['remove']) { ctx._source.remove(f); }";

/** Short memories read per page when every context of a library is rewritten. */
const CONTEXT_PAGE = 1_000;

/** A short memory's context to write (core/memory-context.ts). */
interface MemoryContext {
  itemId: string;
  context: string;
}

/** `_bulk` partial updates writing short memories' contexts on their one passage document. */
const contextUpdates = (passagesIndex: string, contexts: readonly MemoryContext[]) =>
  contexts.flatMap(({ itemId, context }) => [{ update: { _index: passagesIndex, _id: passageId(itemId, 0), retry_on_conflict: UPDATE_RETRIES } }, { doc: { context } }]);

/** A partial update of a passage document retries this often when another one (its vector, its context) lands at once. */
const UPDATE_RETRIES = 3;

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
          method: { name: 'hnsw', engine: 'faiss', space_type: 'innerproduct', parameters: { m: 16, ef_construction: 128 } },
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

/** Line-aligned segments of at most SEGMENT_CHARS; every line (so every match) lies whole in one segment. */
export function grepSegments(text: string): string[] {
  const segments: string[] = [];
  let current = '';
  const overlap = LIMITS.grepPatternChars - 1;
  for (const line of splitLines(text)) {
    if (line.length > SEGMENT_CHARS) {
      if (current) segments.push(current);
      current = '';
      for (let at = 0; at < line.length; at += SEGMENT_CHARS - overlap) {
        segments.push(line.slice(at, at + SEGMENT_CHARS));
        if (at + SEGMENT_CHARS >= line.length) break;
      }
      continue;
    }
    if (current && current.length + 1 + line.length > SEGMENT_CHARS) {
      segments.push(current);
      current = line;
    } else {
      current = current ? `${current}\n${line}` : line;
    }
  }
  if (current) segments.push(current);
  return segments;
}

const escapeWildcard = (pattern: string) => pattern.replace(/[\\*?]/g, (c) => `\\${c}`);

/** The wildcard field folds case like Java; outside ASCII that may differ from JavaScript, so scan instead. */
const canNarrowGrep = (scan: GrepScan) => scan.caseSensitive || /^[\x20-\x7e]*$/.test(scan.pattern);

/** Inner-product score of OpenSearch's faiss engine back to the cosine of unit vectors. */
export const cosineFromScore = (score: number) => (score >= 1 ? score - 1 : 1 - 1 / score);

interface PassageSource {
  item_id: string; kind: ItemKind; title: string | null; source_ref: string | null; content_date: string;
  ordinal: number; line_start: number; line_end: number; text: string;
  /** Absent on documents written before metadata (read as {}). */
  metadata?: Metadata;
}

interface Hit<S> {
  _id: string;
  _score: number;
  _source: S;
  sort?: unknown[];
  /** The names of the named queries the hit matched. */
  matched_queries?: string[];
}

/** The keyword leg's named queries: the item's own words, and its neighbours' (context). */
const OWN_WORDS = 'own';
const CONTEXT_WORDS = 'context';

/** OpenSearch throttling (429), its transient 5xx and connection failures become BackendUnavailableError. */
export function mapOpenSearchError(what: string, error: unknown): unknown {
  if (error instanceof BackendUnavailableError) return error;
  const e = error as { name?: string; statusCode?: number; meta?: { statusCode?: number } };
  const status = e?.statusCode ?? e?.meta?.statusCode;
  const transientName = ['ConnectionError', 'TimeoutError', 'NoLivingConnectionsError'].includes(e?.name ?? '');
  if (transientName || status === 429 || status === 502 || status === 503 || status === 504) {
    return new BackendUnavailableError(`${what}: search backend unavailable`, 1, { cause: error });
  }
  return error;
}

export class OpenSearchSearchIndex implements SearchIndex {
  readonly passagesIndex: string;
  readonly itemsIndex: string;
  private ready: Promise<void> | null = null;

  constructor(
    private readonly transport: OpenSearchTransport,
    private readonly options: OpenSearchIndexOptions,
  ) {
    // The dimension is in the name: another embedder size needs (and gets) a new index.
    this.passagesIndex = `${options.prefix}-passages-d${options.dimensions}`;
    this.itemsIndex = `${options.prefix}-items`;
  }

  private async call<T>(what: string, request: OpenSearchRequest, ignore?: number[]): Promise<T> {
    try {
      const response = await this.transport.request(request, ignore ? { ignore } : undefined);
      return response.body as T;
    } catch (error) {
      throw mapOpenSearchError(what, error);
    }
  }

  /** Creates both indices with their mappings on first use (idempotent, once per process). */
  ensureIndices(): Promise<void> {
    this.ready ??= (async () => {
      const { shards, replicas } = this.options;
      for (const [index, definition, added] of [
        [this.passagesIndex, passagesMapping(this.options.dimensions, shards, replicas), PASSAGE_FIELDS_ADDED],
        [this.itemsIndex, itemsMapping(shards, replicas), ITEM_FIELDS_ADDED],
      ] as const) {
        const body = await this.call<{ error?: { type?: string } }>('index.create', { method: 'PUT', path: `/${index}`, body: definition }, [400]);
        if (body?.error && body.error.type !== 'resource_already_exists_exception') {
          throw new Error(`index.create ${index}: ${body.error.type ?? 'failed'}`);
        }
        if (body?.error) {
          // An index made before these fields: they are added (adding a field to a mapping is always allowed).
          const properties = { generation: { type: 'keyword' }, ...added };
          await this.call('index.mapping', { method: 'PUT', path: `/${index}/_mapping`, body: { properties } });
        }
      }
    })().catch((error) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  /**
   * Tags the item with its generation. OpenSearch cannot check DynamoDB in
   * the same write, so the refusal is the core's: it reads the generation
   * again after the put and removes the item when it ended (core/generations.ts).
   */
  async put(ref: LibraryRef, item: IndexItem, generation?: string, options: PutOptions = {}): Promise<void> {
    // Every vector now, or none yet (attached per passage later: attachPassageVectors).
    if (item.vectors.length && item.vectors.length !== item.passages.length) throw new Error('one vector per passage, or none');
    await this.ensureIndices();
    // What filters read goes on every document of the item: grep reads the item document, both search legs the passages.
    const common = {
      tenant_id: ref.tenantId, library: libraryValue(ref), item_id: item.itemId, kind: item.kind, ...(generation ? { generation } : {}), ...filterFields(item),
    };
    const shortMemory = isShortMemory(item);
    // A short memory's context, and its neighbours' with it among them, go in the same request (one refresh).
    const contexts = shortMemory ? await this.contextsAround('index.put', ref, item.itemId, { itemId: item.itemId, text: item.text }) : [];
    const ownContext = contexts.find((c) => c.itemId === item.itemId)?.context;
    const neighbours = contexts.filter((c) => c.itemId !== item.itemId);
    const bulkBody: unknown[] = [
      { index: { _index: this.itemsIndex, _id: item.itemId } },
      {
        ...common, title: item.title, source_ref: item.sourceRef, content_date: item.contentDate, text: item.text,
        grep: DOCUMENT_KINDS.includes(item.kind) ? grepSegments(item.text) : [], short_memory: shortMemory,
        text_bytes: Buffer.byteLength(item.text, 'utf8'),
      },
    ];
    item.passages.forEach((passage, i) => {
      const vector = item.vectors[i];
      bulkBody.push(
        { index: { _index: this.passagesIndex, _id: passageId(item.itemId, passage.ordinal) } },
        {
          ...common, title: item.title, source_ref: item.sourceRef, content_date: item.contentDate, text: passage.text,
          ordinal: passage.ordinal, line_start: passage.lineStart, line_end: passage.lineEnd,
          // Left out, not null, until the vector is known: `exists` then tells the passages still waiting for one.
          ...(vector ? { embedding: Array.from(vector) } : {}),
          ...(ownContext ? { context: ownContext } : {}),
        },
      );
    });
    bulkBody.push(...contextUpdates(this.passagesIndex, neighbours));
    // A replaced item may have had more passages than it has now.
    await this.deleteWhere('index.put', [this.passagesIndex], [
      ...libraryFilter(ref), { term: { item_id: item.itemId } }, { range: { ordinal: { gte: item.passages.length } } },
    ]);
    // A replacement: the older versions' documents are deleted by id in the same request, after the new ones,
    // so the refresh that shows the new version hides the old (a scheduled refresh mid-request may show both, never neither).
    const replaces = (options.replaces ?? []).filter((id) => id !== item.itemId);
    const replacedDocuments = replaces.length ? await this.documentsOf('index.put', ref, replaces) : [];
    for (const doc of replacedDocuments) bulkBody.push({ delete: { _index: doc._index, _id: doc._id } });
    const neighbourIds = new Set(neighbours.map((n) => passageId(n.itemId, 0)));
    const failures = bulkFailures(await this.call<BulkResponse>('index.put', { method: 'POST', path: '/_bulk', bulkBody, querystring: { refresh: 'wait_for' } }))
      .filter((f) => !(f.status === 404 && neighbourIds.has(f._id ?? ''))); // a neighbour removed meanwhile has no context to write
    if (failures.some((f) => f.status === 429)) throw new BackendUnavailableError('index.put: search backend throttled');
    if (failures.length) throw new Error(`index.put: ${failures.length} documents refused (${failures[0]?.error?.type ?? 'unknown'})`);
    // Anything of theirs the request missed (more documents than one search returns, a write since) goes now.
    if (replaces.length) {
      await this.deleteWhere('index.put', [this.passagesIndex, this.itemsIndex], [...libraryFilter(ref), { terms: { item_id: replaces } }]);
    }
    // The window is read again now that the bulk is refreshed: a neighbour removed or put meanwhile (its
    // own rewrite may have read the library before this item was in it) is mended here.
    if (shortMemory) {
      const fresh = await this.contextsAround('index.put', ref, item.itemId, { itemId: item.itemId, text: item.text });
      if (JSON.stringify(fresh) !== JSON.stringify(contexts)) await this.writeContexts('index.put', fresh);
    }
    // The replaced short memories leave their neighbours' contexts (the sweep refreshed: the searches no longer see them).
    for (const doc of replacedDocuments.filter((d) => d.shortMemory)) await this.writeContexts('index.put', await this.contextsAround('index.put', ref, doc._id, null));
  }

  /** Short memories of the library (item id and text) in capture order, from a search of the items index. */
  private async shortMemories(what: string, ref: LibraryRef, range: Record<string, string> | null, order: 'asc' | 'desc', size: number, after?: string) {
    const body = await this.call<{ hits: { hits: Array<Hit<{ item_id: string; text: string }>> } }>(what, {
      method: 'POST',
      path: `/${this.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size,
        _source: ['item_id', 'text'],
        query: { bool: { filter: [...libraryFilter(ref), { term: { short_memory: true } }, ...(range ? [{ range: { item_id: range } }] : [])] } },
        sort: [{ item_id: order }],
        ...(after ? { search_after: [after] } : {}),
      },
    });
    return (body?.hits?.hits ?? []).map((hit) => ({ itemId: hit._source.item_id, text: hit._source.text }));
  }

  /** Writes the context field of short memories' passage documents (a partial update; a memory gone meanwhile is skipped). */
  private async writeContexts(what: string, contexts: ReadonlyArray<MemoryContext>) {
    if (!contexts.length) return;
    const bulkBody = contextUpdates(this.passagesIndex, contexts);
    const failures = bulkFailures(await this.call<BulkResponse>(what, { method: 'POST', path: '/_bulk', bulkBody, querystring: { refresh: 'wait_for' } }));
    if (failures.some((f) => f.status === 429)) throw new BackendUnavailableError(`${what}: search backend throttled`);
    const refused = failures.filter((f) => f.status !== 404);
    if (refused.length) throw new Error(`${what}: ${refused.length} contexts refused (${refused[0]?.error?.type ?? 'unknown'})`);
  }

  /**
   * The contexts of the short memories whose neighbours change when
   * `itemId` arrives (`arriving`: that memory) or leaves (null): those within
   * MEMORY_CONTEXT.neighbours of its place in capture order, itself included
   * when it arrives. Each needs its own neighbours read, so twice that many
   * are read on each side.
   */
  private async contextsAround(what: string, ref: LibraryRef, itemId: string, arriving: ContextMemory | null): Promise<MemoryContext[]> {
    const before = (await this.shortMemories(what, ref, { lt: itemId }, 'desc', CONTEXT_READ_EACH_SIDE)).reverse();
    const after = await this.shortMemories(what, ref, { gt: itemId }, 'asc', CONTEXT_READ_EACH_SIDE);
    return contextsAround(before, arriving, after).map(({ memory, context }) => ({ itemId: memory.itemId, context }));
  }

  /** Rewrites every short memory's context in a library, page by page (each page read with its neighbours). */
  private async rewriteAllContexts(what: string, ref: LibraryRef) {
    const memories: Array<{ itemId: string; text: string }> = [];
    for (let page = await this.shortMemories(what, ref, null, 'asc', CONTEXT_PAGE); page.length; ) {
      memories.push(...page);
      if (page.length < CONTEXT_PAGE) break;
      page = await this.shortMemories(what, ref, null, 'asc', CONTEXT_PAGE, page.at(-1)!.itemId);
    }
    const contexts = allContexts(memories).map(({ memory, context }) => ({ itemId: memory.itemId, context }));
    for (let start = 0; start < contexts.length; start += CONTEXT_PAGE) await this.writeContexts(what, contexts.slice(start, start + CONTEXT_PAGE));
  }

  /** The item and passage documents (index and id) of these items of the library, up to REPLACED_DOCUMENTS of them. */
  private async documentsOf(what: string, ref: LibraryRef, itemIds: readonly string[]): Promise<Array<{ _index: string; _id: string; shortMemory: boolean }>> {
    const body = await this.call<{ hits: { hits: Array<{ _index: string; _id: string; _source?: { short_memory?: boolean } }> } }>(what, {
      method: 'POST',
      path: `/${this.itemsIndex},${this.passagesIndex}/_search`,
      querystring: SEARCH_QS,
      body: { size: REPLACED_DOCUMENTS, _source: ['short_memory'], query: { bool: { filter: [...libraryFilter(ref), { terms: { item_id: [...itemIds] } }] } } },
    });
    // Only an item document carries the flag; its id is the item's.
    return body.hits.hits.map((hit) => ({ _index: hit._index, _id: hit._id, shortMemory: hit._source?.short_memory === true }));
  }

  /**
   * Deletes what matches, again while documents changed under the delete
   * (version conflicts: a vector attached meanwhile), so nothing it matched
   * survives it. Bounded: a conflict needs a concurrent write, which the
   * writers stop once the item is gone.
   */
  private async deleteWhere(what: string, indices: string[], filter: unknown[]): Promise<void> {
    for (let pass = 0; ; pass++) {
      const result = await this.call<{ version_conflicts?: number } | undefined>(what, {
        method: 'POST',
        path: `/${indices.join(',')}/_delete_by_query`,
        body: { query: { bool: { filter } } },
        querystring: { refresh: true, conflicts: 'proceed', ignore_unavailable: true },
      });
      if (!result?.version_conflicts) return;
      if (pass >= DELETE_PASSES) throw new BackendUnavailableError(`${what}: documents kept changing during the delete`);
    }
  }

  async remove(ref: LibraryRef, itemId: string): Promise<void> {
    const shortMemory = (await this.heldItem('index.remove', ref, itemId))?.short_memory === true;
    await this.deleteWhere('index.remove', [this.passagesIndex, this.itemsIndex], [...libraryFilter(ref), { term: { item_id: itemId } }]);
    // A short memory's words leave its neighbours' contexts too.
    if (shortMemory) await this.writeContexts('index.remove', await this.contextsAround('index.remove', ref, itemId, null));
  }

  /**
   * PATCH: sets title, source_ref and metadata, and the fields filters derive
   * from them, on the item document and every passage document, by an
   * update-by-query whose script writes only those fields (texts, vectors
   * and contexts stay). Refreshed before it returns, so the next search, grep
   * or filter sees the change. A document changed meanwhile (a vector
   * attached) is a version conflict: the update runs again (it sets values,
   * so running twice is the same), as deleteWhere does, so no document keeps
   * the old values. False when the library does not hold the item.
   */
  async updateItem(ref: LibraryRef, itemId: string, changes: DocumentChanges): Promise<boolean> {
    if (!(await this.heldItem('index.updateItem', ref, itemId))) return false;
    const { set, remove } = changedFields(changes);
    if (!Object.keys(set).length && !remove.length) return true;
    // An index made before the filter fields gets them first (this process may not have put anything yet): the mapping is strict.
    await this.ensureIndices();
    for (let pass = 0; ; pass++) {
      const result = await this.call<{ total?: number; version_conflicts?: number; failures?: Array<{ cause?: { type?: string } }> } | undefined>('index.updateItem', {
        method: 'POST',
        path: `/${this.itemsIndex},${this.passagesIndex}/_update_by_query`,
        body: {
          query: { bool: { filter: [...libraryFilter(ref), { term: { item_id: itemId } }] } },
          script: { lang: 'painless', source: UPDATE_FIELDS_SCRIPT, params: { set, remove } },
        },
        querystring: { refresh: true, conflicts: 'proceed', ignore_unavailable: true },
      });
      if (result?.failures?.length) throw new Error(`index.updateItem: ${result.failures.length} documents refused (${result.failures[0]?.cause?.type ?? 'unknown'})`);
      // Nothing matched: removed since it was found.
      if (result?.total === 0) return false;
      if (!result?.version_conflicts) return true;
      if (pass >= DELETE_PASSES) throw new BackendUnavailableError('index.updateItem: documents kept changing during the update');
    }
  }

  /** The item document, when this library holds the item (a realtime get: no refresh needed). */
  private async heldItem(what: string, ref: LibraryRef, itemId: string): Promise<{ short_memory?: boolean } | null> {
    const body = await this.call<{ found?: boolean; _source?: { tenant_id?: string; library?: string; short_memory?: boolean } } | undefined>(
      what,
      { method: 'GET', path: `/${this.itemsIndex}/_doc/${encodeURIComponent(itemId)}`, querystring: { _source_includes: 'tenant_id,library,short_memory' } },
      [404],
    );
    return body?.found && body._source?.tenant_id === ref.tenantId && body._source?.library === libraryValue(ref) ? body._source : null;
  }

  async passagesWithoutVectors(ref: LibraryRef, itemId: string, options: { limit: number; skip?: ReadonlySet<number> }): Promise<Passage[]> {
    if (options.limit < 1) return [];
    const skip = options.skip?.size ? [...options.skip] : [];
    const body = await this.call<{ hits: { hits: Array<Hit<Pick<PassageSource, 'ordinal' | 'line_start' | 'line_end' | 'text'>>> } }>(
      'index.passagesWithoutVectors',
      {
        method: 'POST',
        path: `/${this.passagesIndex}/_search`,
        querystring: SEARCH_QS,
        body: {
          size: options.limit,
          _source: ['ordinal', 'line_start', 'line_end', 'text'],
          query: {
            bool: {
              filter: [...libraryFilter(ref), { term: { item_id: itemId } }],
              must_not: [{ exists: { field: 'embedding' } }, ...(skip.length ? [{ terms: { ordinal: skip } }] : [])],
            },
          },
          sort: [{ ordinal: 'asc' }],
        },
      },
    );
    return (body?.hits?.hits ?? []).map(({ _source: s }) => ({ ordinal: s.ordinal, lineStart: s.line_start, lineEnd: s.line_end, text: s.text }));
  }

  /**
   * Partial updates of the passage documents (`_bulk` update by id: only the
   * `embedding` field is written; an update never creates a document), after
   * checking that this library holds the item. An erasure racing it wins:
   * an update of a deleted passage fails (document missing) and writes
   * nothing, and an update landing while the erasure's delete runs makes it
   * delete again (deleteWhere); the item found gone afterwards answers false.
   */
  async attachPassageVectors(ref: LibraryRef, itemId: string, vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>): Promise<boolean> {
    if (!(await this.heldItem('index.attachPassageVectors', ref, itemId))) return false;
    if (!vectors.length) return true;
    const bulkBody = vectors.flatMap(({ ordinal, vector }) => [
      { update: { _index: this.passagesIndex, _id: passageId(itemId, ordinal), retry_on_conflict: UPDATE_RETRIES } },
      { doc: { embedding: Array.from(vector) } },
    ]);
    // Visible to search on return, so the next passagesWithoutVectors no longer sees these passages.
    const failures = bulkFailures(
      await this.call<BulkResponse>('index.attachPassageVectors', { method: 'POST', path: '/_bulk', bulkBody, querystring: { refresh: 'wait_for' } }),
    );
    if (failures.some((f) => f.status === 429)) throw new BackendUnavailableError('index.attachPassageVectors: search backend throttled');
    const missing = failures.filter((f) => f.status === 404);
    if (missing.length || failures.length) {
      if (!(await this.heldItem('index.attachPassageVectors', ref, itemId))) return false;
      if (missing.length) throw new Error(`index.attachPassageVectors: item ${itemId} has no passage ${missing[0]?._id?.split('#').pop() ?? '?'}`);
      throw new Error(`index.attachPassageVectors: ${failures.length} passages refused (${failures[0]?.error?.type ?? 'unknown'})`);
    }
    return true;
  }

  /** With a generation: that generation's items and untagged ones (older than generations); a newer generation's stay. */
  async removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>> {
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    const filter: unknown[] = [...libraryFilter(ref), ...generationFilter(generation || null)];
    const result = await this.call<{ aggregations?: { kinds?: { buckets?: Array<{ key: string; doc_count: number }> } } }>('index.removeLibrary', {
      method: 'POST',
      path: `/${this.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: { size: 0, query: { bool: { filter } }, aggs: { kinds: { terms: { field: 'kind', size: ITEM_KINDS.length } } } },
    });
    for (const bucket of result?.aggregations?.kinds?.buckets ?? []) {
      if ((ITEM_KINDS as readonly string[]).includes(bucket.key)) counts[bucket.key as ItemKind] = bucket.doc_count;
    }
    await this.deleteWhere('index.removeLibrary', [this.passagesIndex, this.itemsIndex], filter);
    // A newer generation's memories stay: their contexts are rewritten without the removed ones.
    // (With null, the whole library went: generationFilter(null) is no filter.)
    if (generation) await this.rewriteAllContexts('index.removeLibrary', ref);
    return counts;
  }

  private kindFilter(kinds?: readonly ItemKind[]) {
    return kinds?.length ? [{ terms: { kind: [...kinds] } }] : [];
  }

  async keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    if (!query.text.trim()) return [];
    // The caller's filter is a clause of the query: BM25 ranks only the passages that match it.
    const filter = [...libraryFilter(ref), ...generationFilter(query.generation), ...this.kindFilter(query.kinds), ...filterClauses(query.filter)];
    // The analyzer makes a clause per term and field: a query over MAX_QUERY_TERMS terms is cut to its keyword terms (core/query-terms.ts).
    const text = keywordQueryText(query.text);
    const hits = await this.searchPassages('index.keywordSearch', query.limit, {
      bool: {
        filter,
        should: [
          { multi_match: { query: text, fields: [`title^${TITLE_BOOST}`, 'text'], type: 'most_fields', _name: OWN_WORDS } },
          // A short memory's neighbours' words count less than its own (core/memory-context.ts).
          { match: { context: { query: text, boost: MEMORY_CONTEXT.weight, _name: CONTEXT_WORDS } } },
        ],
        minimum_should_match: 1,
      },
    });
    // Marked only when the response names the queries matched and its own words are not among them.
    return hits.map((hit) => ({ ...toHit(hit, hit._score), ...(hit.matched_queries && !hit.matched_queries.includes(OWN_WORDS) ? { viaContext: true } : {}) }));
  }

  async vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    // Inside the k-NN filter too: an ended generation's passages never take a place among the k nearest.
    const filter = [...libraryFilter(ref), ...generationFilter(query.generation), ...this.kindFilter(query.kinds)];
    // The caller's filter goes inside the k-NN query (efficient filtering: the k nearest among the matching passages),
    // never after it, where it would drop some of the k and starve the page.
    const knnFilter = [...filter, ...filterClauses(query.filter)];
    const hits = await this.searchPassages('index.vectorSearch', query.limit, {
      bool: {
        // The k-NN filter restricts the graph walk itself; the outer filter is a second lock on the library.
        must: [{ knn: { embedding: { vector: Array.from(query.vector), k: query.limit, filter: { bool: { filter: knnFilter } } } } }],
        filter,
      },
    });
    return hits.map((hit) => toHit(hit, cosineFromScore(hit._score)));
  }

  /** One search over the passages index, vectors left out of the response. */
  private async searchPassages(operation: string, size: number, query: unknown): Promise<Array<Hit<PassageSource>>> {
    const body = await this.call<{ hits: { hits: Array<Hit<PassageSource>> } }>(operation, {
      method: 'POST',
      path: `/${this.passagesIndex}/_search`,
      querystring: SEARCH_QS,
      // Neither the vector nor a short memory's context (its neighbours' texts) is read back, nor the fields derived for filters.
      body: { size, _source: { excludes: ['embedding', 'context', ...DERIVED_FILTER_FIELDS] }, query },
    });
    return body?.hits?.hits ?? [];
  }

  async documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null> {
    const body = await this.call<{ hits: { hits: Array<Hit<{ text: string }>> } }>('index.documentText', {
      method: 'POST',
      path: `/${this.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size: 1,
        _source: ['text'],
        query: { bool: { filter: [...libraryFilter(ref), ...generationFilter(generation), { terms: { kind: [...DOCUMENT_KINDS] } }, { term: { item_id: itemId } }] } },
      },
    });
    return body?.hits?.hits?.[0]?._source.text ?? null;
  }

  /**
   * Lists the candidates (ids and text sizes, GREP_LIST_BATCH at a time,
   * newest first), then fetches their texts in batches of at most
   * GREP_FETCH_BYTES, each only when the caller asks for its first document:
   * a caller that stops (its page budget spent) leaves the rest unread.
   */
  async *grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    // The caller's filter confines the listing and the fetches alike (a document patched out of it meanwhile is not read).
    const documents: unknown[] = [...libraryFilter(ref), ...generationFilter(scan.generation), { terms: { kind: [...DOCUMENT_KINDS] } }, ...filterClauses(scan.filter)];
    const filter: unknown[] = [...documents];
    if (scan.itemId) filter.push({ term: { item_id: scan.itemId } });
    if (canNarrowGrep(scan)) {
      filter.push({ wildcard: { grep: { value: `*${escapeWildcard(scan.pattern)}*`, case_insensitive: !scan.caseSensitive } } });
    }
    const resume = scan.startAt ?? scan.startAfter;
    if (resume) {
      const { createdAt, id } = resume;
      filter.push({
        bool: {
          should: [
            { range: { content_date: { lt: createdAt } } },
            { bool: { filter: [{ term: { content_date: createdAt } }, { range: { item_id: scan.startAt ? { lte: id } : { lt: id } } }] } },
          ],
          minimum_should_match: 1,
        },
      });
    }
    let after: unknown[] | undefined;
    for (;;) {
      const body = await this.call<{ hits: { hits: Array<Hit<{ item_id: string; text_bytes?: number }>> } }>('index.grep', {
        method: 'POST',
        path: `/${this.itemsIndex}/_search`,
        querystring: SEARCH_QS,
        body: {
          size: GREP_LIST_BATCH,
          _source: ['item_id', 'text_bytes'],
          query: { bool: { filter } },
          sort: [{ content_date: 'desc' }, { item_id: 'desc' }],
          ...(after ? { search_after: after } : {}),
        },
      });
      const hits = body?.hits?.hits ?? [];
      for (const batch of fetchBatches(hits.map((hit) => hit._source))) {
        const texts = await this.grepTexts(documents, batch);
        for (const id of batch) {
          const candidate = texts.get(id);
          // Removed since it was listed: it is no longer in the library.
          if (candidate) yield candidate;
        }
      }
      if (hits.length < GREP_LIST_BATCH) return;
      after = hits[hits.length - 1]!.sort;
    }
  }

  /** The texts of these documents of the library (one request), by id. */
  private async grepTexts(documents: unknown[], itemIds: string[]): Promise<Map<string, GrepCandidate>> {
    const body = await this.call<{ hits: { hits: Array<Hit<{ item_id: string; title: string | null; source_ref: string | null; content_date: string; text: string; metadata?: Metadata }>> } }>(
      'index.grep',
      {
        method: 'POST',
        path: `/${this.itemsIndex}/_search`,
        querystring: SEARCH_QS,
        body: {
          size: itemIds.length,
          _source: ['item_id', 'title', 'source_ref', 'content_date', 'text', 'metadata'],
          query: { bool: { filter: [...documents, { terms: { item_id: itemIds } }] } },
        },
      },
    );
    const texts = new Map<string, GrepCandidate>();
    for (const { _source: s } of body?.hits?.hits ?? []) {
      texts.set(s.item_id, {
        itemId: s.item_id, title: s.title ?? null, sourceRef: s.source_ref ?? null, contentDate: s.content_date, text: s.text, metadata: s.metadata ?? {},
      });
    }
    return texts;
  }
}

/**
 * Listed candidates in order, cut into batches whose texts add up to at most
 * GREP_FETCH_BYTES (and GREP_FETCH_DOCUMENTS); a text larger than that, or
 * of unknown size, is a batch of its own.
 */
export function fetchBatches(listed: ReadonlyArray<{ item_id: string; text_bytes?: number }>): string[][] {
  const batches: string[][] = [];
  let batch: string[] = [];
  let bytes = 0;
  for (const { item_id: id, text_bytes: size } of listed) {
    const known = typeof size === 'number' && Number.isFinite(size) && size >= 0;
    if (batch.length && (!known || bytes + size > GREP_FETCH_BYTES || batch.length >= GREP_FETCH_DOCUMENTS)) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(id);
    bytes += known ? size : Number.POSITIVE_INFINITY;
  }
  if (batch.length) batches.push(batch);
  return batches;
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
