import type { Page } from '../core/cursor.js';
import { type Filter, parseFilter } from '../core/filter.js';
import { LIMITS } from '../core/limits.js';
import type { ItemKind, LibraryRef } from '../core/model.js';
import { toHttpError } from '../http/errors.js';
import { captureRawItem, type ReceiptListener } from '../http/receipts.js';
import type { Services } from '../wiring/services.js';
import { type FilterObject, type LibraryOperations, OperationError } from './operations.js';

/** The use cases the MCP tools call: those of search, grep, chat, capture, the document list, delete and content routes. */
export type McpServices = Pick<Services, 'search' | 'grep' | 'chat' | 'capture' | 'documents' | 'reading'>;

/**
 * A filter object read as POST /v1/chat reads its body's (core/filter.ts): same limits, same messages naming
 * the path. Parsed as given, not written out first: the parser refuses deep nesting before it measures the
 * whole, where JSON.stringify would recurse through a filter nested thousands of levels until the stack ran out.
 */
const filterOf = (filter: FilterObject | undefined): Filter | undefined =>
  filter === undefined ? undefined : parseFilter(filter);

/** A page in the contract's list shape (http/page.ts's pageBody, typed): `{count, <items>, has_more, next_cursor}`. */
const pageOf = <T, F extends Record<string, T[]>>(page: Page<T>, items: (items: T[]) => F) => ({
  count: page.items.length,
  ...items(page.items),
  has_more: page.hasMore,
  next_cursor: page.nextCursor,
});

/** Any failure as the API would answer it: its error code and message (toHttpError: an unknown error is internal_error, no details). */
async function asOperation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const http = toHttpError(error);
    throw new OperationError(http.code, http.message, http.retryAfterSeconds);
  }
}

/**
 * The operations in process, over the core's services, on one library (the
 * session's: the key's tenant, and the end user the endpoint was called
 * for). The same calls the REST handlers make, with the same defaults.
 */
export function serviceOperations(
  services: McpServices,
  ref: LibraryRef,
  options: { tenantId: string; deadline?: number; onReceipt?: ReceiptListener },
): LibraryOperations {
  return {
    search: (args) =>
      asOperation(async () => {
        const page = await services.search.search(ref, {
          q: args.query,
          limit: args.limit ?? LIMITS.search.default,
          kinds: args.kind as ItemKind[] | undefined,
          minScore: args.min_score,
          filter: filterOf(args.filter),
          cursor: args.cursor,
        });
        return { query: args.query, ...pageOf(page, (results) => ({ results })) };
      }),
    grep: (args) =>
      asOperation(async () => {
        const page = await services.grep.grep(ref, {
          pattern: args.pattern,
          caseSensitive: args.case_sensitive ?? false,
          fileId: args.file_id,
          limit: LIMITS.grep.default,
          cursor: args.cursor,
          deadline: options.deadline,
          filter: filterOf(args.filter),
        });
        return { pattern: args.pattern, ...pageOf(page, (results) => ({ results })) };
      }),
    ask: (args) =>
      asOperation(() =>
        services.chat.chat(ref, args.question, { conversationId: args.conversation_id, filter: filterOf(args.filter) }),
      ),
    remember: (args) =>
      asOperation(() =>
        // The capture route's own path: the item checked by the same schema, the receipt counted on the access line.
        captureRawItem(
          services.capture,
          options.tenantId,
          { ...args, ...(ref.endUserId !== null ? { end_user_id: ref.endUserId } : {}) },
          {
            interactive: true,
            deadline: options.deadline,
            onReceipt: options.onReceipt,
          },
        ),
      ),
    listDocuments: (args) =>
      asOperation(async () => {
        const page = await services.documents.list(ref, {
          limit: args.limit ?? LIMITS.documents.default,
          cursor: args.cursor,
          sourceRef: args.source_ref,
          filter: filterOf(args.filter),
        });
        return pageOf(page, (documents) => ({ documents }));
      }),
    readDocument: (args) =>
      asOperation(() =>
        services.reading.content(ref, args.id, {
          fromLine: args.from_line ?? 1,
          lines: args.lines ?? LIMITS.contentLines.default,
        }),
      ),
    forget: (args) => asOperation(() => services.documents.delete(ref, args.id)),
  };
}
