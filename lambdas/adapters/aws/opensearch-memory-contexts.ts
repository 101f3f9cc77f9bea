import { BackendUnavailableError } from '../../core/errors.js';
import { allContexts, CONTEXT_READ_EACH_SIDE, type ContextMemory, contextsAround } from '../../core/memory-context.js';
import type { LibraryRef } from '../../core/model.js';
import {
  type BulkResponse,
  bulkFailures,
  type Hit,
  type IndexRequests,
  libraryFilter,
  passageId,
  SEARCH_QS,
  UPDATE_RETRIES,
} from './opensearch-index-requests.js';

/**
 * The short memories' contexts in the OpenSearch search index
 * (core/memory-context.ts): a short memory's one passage document holds its
 * neighbours' texts in `context`, read from the items index in capture
 * order and rewritten by partial updates when a neighbour arrives or
 * leaves. Apart from the writes that call it: the neighbour windows and
 * their paging are their own rules.
 */

/** Short memories read per page when every context of a library is rewritten. */
const CONTEXT_PAGE = 1_000;

/** A short memory's context to write (core/memory-context.ts). */
export interface MemoryContext {
  itemId: string;
  context: string;
}

/** `_bulk` partial updates writing short memories' contexts on their one passage document. */
export const contextUpdates = (passagesIndex: string, contexts: readonly MemoryContext[]) =>
  contexts.flatMap(({ itemId, context }) => [
    { update: { _index: passagesIndex, _id: passageId(itemId, 0), retry_on_conflict: UPDATE_RETRIES } },
    { doc: { context } },
  ]);

export class MemoryContexts {
  constructor(private readonly requests: IndexRequests) {}

  /** Short memories of the library (item id and text) in capture order, from a search of the items index. */
  private async shortMemories(
    what: string,
    ref: LibraryRef,
    range: Record<string, string> | null,
    order: 'asc' | 'desc',
    size: number,
    after?: string,
  ) {
    const body = await this.requests.call<{ hits: { hits: Array<Hit<{ item_id: string; text: string }>> } }>(what, {
      method: 'POST',
      path: `/${this.requests.itemsIndex}/_search`,
      querystring: SEARCH_QS,
      body: {
        size,
        _source: ['item_id', 'text'],
        query: {
          bool: {
            filter: [
              ...libraryFilter(ref),
              { term: { short_memory: true } },
              ...(range ? [{ range: { item_id: range } }] : []),
            ],
          },
        },
        sort: [{ item_id: order }],
        ...(after ? { search_after: [after] } : {}),
      },
    });
    return (body?.hits?.hits ?? []).map((hit) => ({ itemId: hit._source.item_id, text: hit._source.text }));
  }

  /** Writes the context field of short memories' passage documents (a partial update; a memory gone meanwhile is skipped). */
  async writeContexts(what: string, contexts: ReadonlyArray<MemoryContext>) {
    if (!contexts.length) return;
    const bulkBody = contextUpdates(this.requests.passagesIndex, contexts);
    const failures = bulkFailures(
      await this.requests.call<BulkResponse>(what, {
        method: 'POST',
        path: '/_bulk',
        bulkBody,
        querystring: { refresh: 'wait_for' },
      }),
    );
    if (failures.some((f) => f.status === 429)) throw new BackendUnavailableError(`${what}: search backend throttled`);
    const refused = failures.filter((f) => f.status !== 404);
    if (refused.length)
      throw new Error(`${what}: ${refused.length} contexts refused (${refused[0]?.error?.type ?? 'unknown'})`);
  }

  /**
   * The contexts of the short memories whose neighbours change when
   * `itemId` arrives (`arriving`: that memory) or leaves (null): those within
   * MEMORY_CONTEXT.neighbours of its place in capture order, itself included
   * when it arrives. Each needs its own neighbours read, so twice that many
   * are read on each side.
   */
  async contextsAround(
    what: string,
    ref: LibraryRef,
    itemId: string,
    arriving: ContextMemory | null,
  ): Promise<MemoryContext[]> {
    const before = (await this.shortMemories(what, ref, { lt: itemId }, 'desc', CONTEXT_READ_EACH_SIDE)).reverse();
    const after = await this.shortMemories(what, ref, { gt: itemId }, 'asc', CONTEXT_READ_EACH_SIDE);
    return contextsAround(before, arriving, after).map(({ memory, context }) => ({ itemId: memory.itemId, context }));
  }

  /** Rewrites every short memory's context in a library, page by page (each page read with its neighbours). */
  async rewriteAllContexts(what: string, ref: LibraryRef) {
    const memories: Array<{ itemId: string; text: string }> = [];
    for (let page = await this.shortMemories(what, ref, null, 'asc', CONTEXT_PAGE); page.length; ) {
      memories.push(...page);
      if (page.length < CONTEXT_PAGE) break;
      page = await this.shortMemories(what, ref, null, 'asc', CONTEXT_PAGE, page.at(-1)!.itemId);
    }
    const contexts = allContexts(memories).map(({ memory, context }) => ({ itemId: memory.itemId, context }));
    for (let start = 0; start < contexts.length; start += CONTEXT_PAGE)
      await this.writeContexts(what, contexts.slice(start, start + CONTEXT_PAGE));
  }
}
