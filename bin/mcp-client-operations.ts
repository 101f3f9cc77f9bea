import { Library, LibraryError, type CaptureInput, type ChatRequest, type DocumentsParams, type GrepParams, type SearchParams } from '../client/src/index.js';
import { OperationError, type AskAnswer, type DocumentsAnswer, type FilterObject, type Forgotten, type GrepAnswer, type LibraryOperations, type Receipt, type SearchAnswer } from '../lambdas/mcp/operations.js';

/** A filter as the API's GET routes take it: the JSON object as a query parameter's text (the client sends it URL-encoded). */
const filterParam = (filter: FilterObject | undefined) => (filter === undefined ? {} : { filter: JSON.stringify(filter) });

/**
 * A body as the service sent it, typed as the operations type it. The
 * client's generated types (client/src/api-types.ts) do not name `metadata`
 * and `filter` yet; the service sends and takes them (API.md, "Metadata").
 */
const served = <T>(body: unknown): T => body as T;

/** Any failure as the service (or the client, when no answer came) named it: its code and message, and when to retry. */
async function asOperation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LibraryError) throw new OperationError(error.code, error.message, error.retryAfter ?? undefined);
    throw new OperationError('internal_error', error instanceof Error ? error.message : String(error));
  }
}

/**
 * The MCP tools' operations over the typed client (`@library/client`): what
 * `library mcp` serves on stdio. Every call goes to the API with the key,
 * on the end user's library when one is given (else the shared library),
 * so the service's own rules, limits and errors apply as for any caller.
 */
export function clientOperations(library: Library, endUserId?: string): LibraryOperations {
  const scope = endUserId !== undefined ? { end_user_id: endUserId } : {};
  return {
    search: (args) =>
      asOperation(async () => {
        const params = {
          q: args.query, ...scope, ...filterParam(args.filter),
          ...(args.limit !== undefined ? { limit: args.limit } : {}),
          ...(args.kind !== undefined ? { kind: args.kind.join(',') } : {}),
          ...(args.min_score !== undefined ? { min_score: args.min_score } : {}),
        } as SearchParams;
        return served<SearchAnswer>((await library.search(params)).data);
      }),
    grep: (args) =>
      asOperation(async () => {
        const params = {
          pattern: args.pattern, ...scope, ...filterParam(args.filter),
          ...(args.case_sensitive !== undefined ? { case_sensitive: args.case_sensitive } : {}),
          ...(args.file_id !== undefined ? { file_id: args.file_id } : {}),
        } as GrepParams;
        return served<GrepAnswer>((await library.grep(params)).data);
      }),
    ask: (args) =>
      asOperation(async () => {
        const request = { question: args.question, ...(args.filter !== undefined ? { filter: args.filter } : {}) } as ChatRequest;
        return served<AskAnswer>(await library.chat(request, { conversationId: args.conversation_id, ...scope }));
      }),
    remember: (args) => asOperation(async () => served<Receipt>(await library.capture({ ...args, ...scope } as CaptureInput))),
    listDocuments: (args) =>
      asOperation(async () => {
        const params = {
          ...scope, ...filterParam(args.filter),
          ...(args.limit !== undefined ? { limit: args.limit } : {}),
          ...(args.cursor !== undefined ? { cursor: args.cursor } : {}),
          ...(args.source_ref !== undefined ? { source_ref: args.source_ref } : {}),
        } as DocumentsParams;
        return served<DocumentsAnswer>((await library.documents.list(params)).data);
      }),
    readDocument: (args) => asOperation(() => library.documents.content(args.id, { fromLine: args.from_line, lines: args.lines, ...scope })),
    forget: (args) => asOperation(async () => served<Forgotten>(await library.documents.delete(args.id, scope))),
  };
}
