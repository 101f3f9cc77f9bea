import { BackendUnavailableError } from '../../core/errors.js';
import type { LibraryRef } from '../../core/model.js';

/**
 * What every part of the OpenSearch search index needs to make a request:
 * the transport and its one call (errors mapped), the two indices' names,
 * and the request fragments they all repeat (the library and generation
 * filters, the read options, the hit and _bulk response shapes, a passage
 * document's id). Kept apart so the mapping, the writes, the legs and the
 * grep scan share one copy and none of them imports the index class.
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
  request(
    params: OpenSearchRequest,
    options?: { ignore?: number[] },
  ): Promise<{ body: unknown; statusCode?: number | null }>;
}

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

/** The two indices of one index prefix and embedder size, and the call every request goes through. */
export class IndexRequests {
  readonly passagesIndex: string;
  readonly itemsIndex: string;

  constructor(
    private readonly transport: OpenSearchTransport,
    options: { prefix: string; dimensions: number },
  ) {
    // The dimension is in the name: another embedder size needs (and gets) a new index.
    this.passagesIndex = `${options.prefix}-passages-d${options.dimensions}`;
    this.itemsIndex = `${options.prefix}-items`;
  }

  async call<T>(what: string, request: OpenSearchRequest, ignore?: number[]): Promise<T> {
    try {
      const response = await this.transport.request(request, ignore ? { ignore } : undefined);
      return response.body as T;
    } catch (error) {
      throw mapOpenSearchError(what, error);
    }
  }
}

/** Reads and deletes never create an index: before the first write there is simply nothing. */
export const SEARCH_QS = { ignore_unavailable: true };
/** A partial update of a passage document retries this often when another one (its vector, its context) lands at once. */
export const UPDATE_RETRIES = 3;

/** The passage document's id: the item and the passage's ordinal, so a vector can be attached to it later. */
export const passageId = (itemId: string, ordinal: number) => `${itemId}#${ordinal}`;

type BulkItemResult = { _id?: string; status?: number; error?: { type?: string } };
export type BulkResponse = { errors?: boolean; items?: Array<Record<string, BulkItemResult>> } | undefined;

/** The items of a _bulk response that failed. */
export const bulkFailures = (result: BulkResponse): BulkItemResult[] =>
  result?.errors ? (result.items ?? []).map((entry) => Object.values(entry)[0]!).filter((r) => r?.error) : [];

export const libraryValue = (ref: LibraryRef) => (ref.endUserId === null ? 'S' : `U#${ref.endUserId}`);

/** Filters that confine a query to one library of one tenant. */
export const libraryFilter = (ref: LibraryRef) => [
  { term: { tenant_id: ref.tenantId } },
  { term: { library: libraryValue(ref) } },
];

/**
 * Entries of one generation, and untagged ones (written before generations:
 * the library's first generation, removed by every generational erasure).
 * None when no generation is named.
 */
export const generationFilter = (generation?: string | null) =>
  generation != null
    ? [
        {
          bool: {
            should: [{ term: { generation } }, { bool: { must_not: [{ exists: { field: 'generation' } }] } }],
            minimum_should_match: 1,
          },
        },
      ]
    : [];

export interface Hit<S> {
  _id: string;
  _score: number;
  _source: S;
  sort?: unknown[];
  /** The names of the named queries the hit matched. */
  matched_queries?: string[];
}
