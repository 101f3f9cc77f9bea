import { BackendUnavailableError } from '../../core/errors.js';
import { isShortMemory } from '../../core/memory-context.js';
import type {
  DocumentChanges,
  GrepCandidate,
  IndexItem,
  ItemKind,
  LibraryRef,
  Passage,
  PassageHit,
} from '../../core/model.js';
import { DOCUMENT_KINDS, ITEM_KINDS } from '../../core/model.js';
import type { GrepScan, KeywordQuery, PutOptions, SearchIndex, VectorQuery } from '../../core/ports.js';
import { changedFields, filterFields } from './opensearch-filter.js';
import { grepScan, grepSegments } from './opensearch-grep-scan.js';
import { createIndices } from './opensearch-index-mapping.js';
import {
  type BulkResponse,
  bulkFailures,
  generationFilter,
  type Hit,
  IndexRequests,
  libraryFilter,
  libraryValue,
  type OpenSearchTransport,
  passageId,
  SEARCH_QS,
  UPDATE_RETRIES,
} from './opensearch-index-requests.js';
import { contextUpdates, MemoryContexts } from './opensearch-memory-contexts.js';
import { keywordLeg, type PassageSource, vectorLeg } from './opensearch-search-legs.js';

export interface OpenSearchIndexOptions {
  /** Index names start with this (e.g. `library`). */
  prefix: string;
  dimensions: number;
  shards?: number;
  replicas?: number;
}

/** A delete repeated this many times while concurrent writes keep changing what it matches gives up (retryable). */
const DELETE_PASSES = 5;
/** Documents of replaced items deleted within the replacing put's _bulk request (the rest by the sweep right after). */
const REPLACED_DOCUMENTS = 5_000;

/** Sets `params.set`'s fields and removes `params.remove`'s on a document (updateItem); one source, compiled once. */
const UPDATE_FIELDS_SCRIPT =
  "for (def e : params['set'].entrySet()) { ctx._source.put(e.getKey(), e.getValue()); } for (def f : params['remove']) { ctx._source.remove(f); }";

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
 *
 * This module keeps the writes (put, vectors attached later, removals,
 * updates) and composes the rest, each in a module of its own beside it:
 * the indices' mappings and their setup (opensearch-index-mapping.ts), the
 * short memories' contexts (opensearch-memory-contexts.ts), both search
 * legs (opensearch-search-legs.ts), the grep field and scan
 * (opensearch-grep-scan.ts), and what they share: the transport call and
 * the request fragments (opensearch-index-requests.ts).
 */
export class OpenSearchSearchIndex implements SearchIndex {
  readonly passagesIndex: string;
  readonly itemsIndex: string;
  private readonly requests: IndexRequests;
  private readonly contexts: MemoryContexts;
  private ready: Promise<void> | null = null;

  constructor(
    transport: OpenSearchTransport,
    private readonly options: OpenSearchIndexOptions,
  ) {
    this.requests = new IndexRequests(transport, options);
    this.passagesIndex = this.requests.passagesIndex;
    this.itemsIndex = this.requests.itemsIndex;
    this.contexts = new MemoryContexts(this.requests);
  }

  /** Creates both indices with their mappings on first use (idempotent, once per process). */
  ensureIndices(): Promise<void> {
    this.ready ??= createIndices(this.requests, this.options).catch((error) => {
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
    if (item.vectors.length && item.vectors.length !== item.passages.length)
      throw new Error('one vector per passage, or none');
    await this.ensureIndices();
    // What filters read goes on every document of the item: grep reads the item document, both search legs the passages.
    const common = {
      tenant_id: ref.tenantId,
      library: libraryValue(ref),
      item_id: item.itemId,
      kind: item.kind,
      ...(generation ? { generation } : {}),
      ...filterFields(item),
    };
    const shortMemory = isShortMemory(item);
    // A short memory's context, and its neighbours' with it among them, go in the same request (one refresh).
    const contexts = shortMemory
      ? await this.contexts.contextsAround('index.put', ref, item.itemId, { itemId: item.itemId, text: item.text })
      : [];
    const ownContext = contexts.find((c) => c.itemId === item.itemId)?.context;
    const neighbours = contexts.filter((c) => c.itemId !== item.itemId);
    const bulkBody: unknown[] = [
      { index: { _index: this.itemsIndex, _id: item.itemId } },
      {
        ...common,
        title: item.title,
        source_ref: item.sourceRef,
        content_date: item.contentDate,
        text: item.text,
        grep: DOCUMENT_KINDS.includes(item.kind) ? grepSegments(item.text) : [],
        short_memory: shortMemory,
        text_bytes: Buffer.byteLength(item.text, 'utf8'),
      },
    ];
    item.passages.forEach((passage, i) => {
      const vector = item.vectors[i];
      bulkBody.push(
        { index: { _index: this.passagesIndex, _id: passageId(item.itemId, passage.ordinal) } },
        {
          ...common,
          title: item.title,
          source_ref: item.sourceRef,
          content_date: item.contentDate,
          text: passage.text,
          ordinal: passage.ordinal,
          line_start: passage.lineStart,
          line_end: passage.lineEnd,
          // Left out, not null, until the vector is known: `exists` then tells the passages still waiting for one.
          ...(vector ? { embedding: Array.from(vector) } : {}),
          ...(ownContext ? { context: ownContext } : {}),
        },
      );
    });
    bulkBody.push(...contextUpdates(this.passagesIndex, neighbours));
    // A replaced item may have had more passages than it has now.
    await this.deleteWhere(
      'index.put',
      [this.passagesIndex],
      [
        ...libraryFilter(ref),
        { term: { item_id: item.itemId } },
        { range: { ordinal: { gte: item.passages.length } } },
      ],
    );
    // A replacement: the older versions' documents are deleted by id in the same request, after the new ones,
    // so the refresh that shows the new version hides the old (a scheduled refresh mid-request may show both, never neither).
    const replaces = (options.replaces ?? []).filter((id) => id !== item.itemId);
    const replacedDocuments = replaces.length ? await this.documentsOf('index.put', ref, replaces) : [];
    for (const doc of replacedDocuments) bulkBody.push({ delete: { _index: doc._index, _id: doc._id } });
    const neighbourIds = new Set(neighbours.map((n) => passageId(n.itemId, 0)));
    const failures = bulkFailures(
      await this.requests.call<BulkResponse>('index.put', {
        method: 'POST',
        path: '/_bulk',
        bulkBody,
        querystring: { refresh: 'wait_for' },
      }),
    ).filter((f) => !(f.status === 404 && neighbourIds.has(f._id ?? ''))); // a neighbour removed meanwhile has no context to write
    if (failures.some((f) => f.status === 429))
      throw new BackendUnavailableError('index.put: search backend throttled');
    if (failures.length)
      throw new Error(`index.put: ${failures.length} documents refused (${failures[0]?.error?.type ?? 'unknown'})`);
    // Anything of theirs the request missed (more documents than one search returns, a write since) goes now.
    if (replaces.length) {
      await this.deleteWhere(
        'index.put',
        [this.passagesIndex, this.itemsIndex],
        [...libraryFilter(ref), { terms: { item_id: replaces } }],
      );
    }
    // The window is read again now that the bulk is refreshed: a neighbour removed or put meanwhile (its
    // own rewrite may have read the library before this item was in it) is mended here.
    if (shortMemory) {
      const fresh = await this.contexts.contextsAround('index.put', ref, item.itemId, {
        itemId: item.itemId,
        text: item.text,
      });
      if (JSON.stringify(fresh) !== JSON.stringify(contexts)) await this.contexts.writeContexts('index.put', fresh);
    }
    // The replaced short memories leave their neighbours' contexts (the sweep refreshed: the searches no longer see them).
    for (const doc of replacedDocuments.filter((d) => d.shortMemory))
      await this.contexts.writeContexts(
        'index.put',
        await this.contexts.contextsAround('index.put', ref, doc._id, null),
      );
  }

  /** The item and passage documents (index and id) of these items of the library, up to REPLACED_DOCUMENTS of them. */
  private async documentsOf(
    what: string,
    ref: LibraryRef,
    itemIds: readonly string[],
  ): Promise<Array<{ _index: string; _id: string; shortMemory: boolean }>> {
    const body = await this.requests.call<{
      hits: { hits: Array<{ _index: string; _id: string; _source?: { short_memory?: boolean } }> };
    }>(what, {
      method: 'POST',
      path: `/${this.itemsIndex},${this.passagesIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size: REPLACED_DOCUMENTS,
        _source: ['short_memory'],
        query: { bool: { filter: [...libraryFilter(ref), { terms: { item_id: [...itemIds] } }] } },
      },
    });
    // Only an item document carries the flag; its id is the item's.
    return body.hits.hits.map((hit) => ({
      _index: hit._index,
      _id: hit._id,
      shortMemory: hit._source?.short_memory === true,
    }));
  }

  /**
   * Deletes what matches, again while documents changed under the delete
   * (version conflicts: a vector attached meanwhile), so nothing it matched
   * survives it. Bounded: a conflict needs a concurrent write, which the
   * writers stop once the item is gone.
   */
  private async deleteWhere(what: string, indices: string[], filter: unknown[]): Promise<void> {
    for (let pass = 0; ; pass++) {
      const result = await this.requests.call<{ version_conflicts?: number } | undefined>(what, {
        method: 'POST',
        path: `/${indices.join(',')}/_delete_by_query`,
        body: { query: { bool: { filter } } },
        querystring: { refresh: true, conflicts: 'proceed', ignore_unavailable: true },
      });
      if (!result?.version_conflicts) return;
      if (pass >= DELETE_PASSES)
        throw new BackendUnavailableError(`${what}: documents kept changing during the delete`);
    }
  }

  async remove(ref: LibraryRef, itemId: string): Promise<void> {
    const shortMemory = (await this.heldItem('index.remove', ref, itemId))?.short_memory === true;
    await this.deleteWhere(
      'index.remove',
      [this.passagesIndex, this.itemsIndex],
      [...libraryFilter(ref), { term: { item_id: itemId } }],
    );
    // A short memory's words leave its neighbours' contexts too.
    if (shortMemory)
      await this.contexts.writeContexts(
        'index.remove',
        await this.contexts.contextsAround('index.remove', ref, itemId, null),
      );
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
      const result = await this.requests.call<
        { total?: number; version_conflicts?: number; failures?: Array<{ cause?: { type?: string } }> } | undefined
      >('index.updateItem', {
        method: 'POST',
        path: `/${this.itemsIndex},${this.passagesIndex}/_update_by_query`,
        body: {
          query: { bool: { filter: [...libraryFilter(ref), { term: { item_id: itemId } }] } },
          script: { lang: 'painless', source: UPDATE_FIELDS_SCRIPT, params: { set, remove } },
        },
        querystring: { refresh: true, conflicts: 'proceed', ignore_unavailable: true },
      });
      if (result?.failures?.length)
        throw new Error(
          `index.updateItem: ${result.failures.length} documents refused (${result.failures[0]?.cause?.type ?? 'unknown'})`,
        );
      // Nothing matched: removed since it was found.
      if (result?.total === 0) return false;
      if (!result?.version_conflicts) return true;
      if (pass >= DELETE_PASSES)
        throw new BackendUnavailableError('index.updateItem: documents kept changing during the update');
    }
  }

  /** The item document, when this library holds the item (a realtime get: no refresh needed). */
  private async heldItem(what: string, ref: LibraryRef, itemId: string): Promise<{ short_memory?: boolean } | null> {
    const body = await this.requests.call<
      { found?: boolean; _source?: { tenant_id?: string; library?: string; short_memory?: boolean } } | undefined
    >(
      what,
      {
        method: 'GET',
        path: `/${this.itemsIndex}/_doc/${encodeURIComponent(itemId)}`,
        querystring: { _source_includes: 'tenant_id,library,short_memory' },
      },
      [404],
    );
    return body?.found && body._source?.tenant_id === ref.tenantId && body._source?.library === libraryValue(ref)
      ? body._source
      : null;
  }

  async passagesWithoutVectors(
    ref: LibraryRef,
    itemId: string,
    options: { limit: number; skip?: ReadonlySet<number>; from?: number },
  ): Promise<Passage[]> {
    if (options.limit < 1) return [];
    const skip = options.skip?.size ? [...options.skip] : [];
    const body = await this.requests.call<{
      hits: { hits: Array<Hit<Pick<PassageSource, 'ordinal' | 'line_start' | 'line_end' | 'text'>>> };
    }>('index.passagesWithoutVectors', {
      method: 'POST',
      path: `/${this.passagesIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size: options.limit,
        _source: ['ordinal', 'line_start', 'line_end', 'text'],
        query: {
          bool: {
            filter: [
              ...libraryFilter(ref),
              { term: { item_id: itemId } },
              ...(options.from ? [{ range: { ordinal: { gte: options.from } } }] : []),
            ],
            must_not: [{ exists: { field: 'embedding' } }, ...(skip.length ? [{ terms: { ordinal: skip } }] : [])],
          },
        },
        sort: [{ ordinal: 'asc' }],
      },
    });
    return (body?.hits?.hits ?? []).map(({ _source: s }) => ({
      ordinal: s.ordinal,
      lineStart: s.line_start,
      lineEnd: s.line_end,
      text: s.text,
    }));
  }

  /**
   * Partial updates of the passage documents (`_bulk` update by id: only the
   * `embedding` field is written; an update never creates a document), after
   * checking that this library holds the item. An erasure racing it wins:
   * an update of a deleted passage fails (document missing) and writes
   * nothing, and an update landing while the erasure's delete runs makes it
   * delete again (deleteWhere); the item found gone afterwards answers false.
   */
  async attachPassageVectors(
    ref: LibraryRef,
    itemId: string,
    vectors: ReadonlyArray<{ ordinal: number; vector: Float32Array }>,
  ): Promise<boolean> {
    if (!(await this.heldItem('index.attachPassageVectors', ref, itemId))) return false;
    if (!vectors.length) return true;
    const bulkBody = vectors.flatMap(({ ordinal, vector }) => [
      { update: { _index: this.passagesIndex, _id: passageId(itemId, ordinal), retry_on_conflict: UPDATE_RETRIES } },
      { doc: { embedding: Array.from(vector) } },
    ]);
    // Visible to search on return, so the next passagesWithoutVectors no longer sees these passages.
    const failures = bulkFailures(
      await this.requests.call<BulkResponse>('index.attachPassageVectors', {
        method: 'POST',
        path: '/_bulk',
        bulkBody,
        querystring: { refresh: 'wait_for' },
      }),
    );
    if (failures.some((f) => f.status === 429))
      throw new BackendUnavailableError('index.attachPassageVectors: search backend throttled');
    const missing = failures.filter((f) => f.status === 404);
    if (missing.length || failures.length) {
      if (!(await this.heldItem('index.attachPassageVectors', ref, itemId))) return false;
      if (missing.length)
        throw new Error(
          `index.attachPassageVectors: item ${itemId} has no passage ${missing[0]?._id?.split('#').pop() ?? '?'}`,
        );
      throw new Error(
        `index.attachPassageVectors: ${failures.length} passages refused (${failures[0]?.error?.type ?? 'unknown'})`,
      );
    }
    return true;
  }

  /** With a generation: that generation's items and untagged ones (older than generations); a newer generation's stay. */
  async removeLibrary(ref: LibraryRef, generation?: string | null): Promise<Record<ItemKind, number>> {
    const counts = Object.fromEntries(ITEM_KINDS.map((k) => [k, 0])) as Record<ItemKind, number>;
    const filter: unknown[] = [...libraryFilter(ref), ...generationFilter(generation || null)];
    const result = await this.requests.call<{
      aggregations?: { kinds?: { buckets?: Array<{ key: string; doc_count: number }> } };
    }>('index.removeLibrary', {
      method: 'POST',
      path: `/${this.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size: 0,
        query: { bool: { filter } },
        aggs: { kinds: { terms: { field: 'kind', size: ITEM_KINDS.length } } },
      },
    });
    for (const bucket of result?.aggregations?.kinds?.buckets ?? []) {
      if ((ITEM_KINDS as readonly string[]).includes(bucket.key)) counts[bucket.key as ItemKind] = bucket.doc_count;
    }
    await this.deleteWhere('index.removeLibrary', [this.passagesIndex, this.itemsIndex], filter);
    // A newer generation's memories stay: their contexts are rewritten without the removed ones.
    // (With null, the whole library went: generationFilter(null) is no filter.)
    if (generation) await this.contexts.rewriteAllContexts('index.removeLibrary', ref);
    return counts;
  }

  async keywordSearch(ref: LibraryRef, query: KeywordQuery): Promise<PassageHit[]> {
    return keywordLeg(this.requests, ref, query);
  }

  async vectorSearch(ref: LibraryRef, query: VectorQuery): Promise<PassageHit[]> {
    return vectorLeg(this.requests, ref, query);
  }

  async documentText(ref: LibraryRef, itemId: string, generation?: string): Promise<string | null> {
    const body = await this.requests.call<{ hits: { hits: Array<Hit<{ text: string }>> } }>('index.documentText', {
      method: 'POST',
      path: `/${this.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size: 1,
        _source: ['text'],
        query: {
          bool: {
            filter: [
              ...libraryFilter(ref),
              ...generationFilter(generation),
              { terms: { kind: [...DOCUMENT_KINDS] } },
              { term: { item_id: itemId } },
            ],
          },
        },
      },
    });
    return body?.hits?.hits?.[0]?._source.text ?? null;
  }

  /** The library's documents that may hold the pattern, newest first (opensearch-grep-scan.ts). */
  async *grepCandidates(ref: LibraryRef, scan: GrepScan): AsyncIterable<GrepCandidate> {
    yield* grepScan(this.requests, ref, scan);
  }
}
