import { type Filter, type Library, LibraryError, type Metadata } from '../client/src/index.js';
import { type FilterObject, type LibraryOperations, OperationError } from '../lambdas/mcp/operations.js';

/**
 * A tool's filter as the client takes it. The tools take any JSON object (an
 * assistant writes it); the service checks it as it checks every filter (422
 * naming the path inside it), so it goes as it came.
 */
const filterOf = (filter: FilterObject | undefined) => (filter === undefined ? {} : { filter: filter as Filter });

/** Only the options an assistant gave: an absent argument takes the service's default. */
const given = <T extends Record<string, unknown>>(options: T): Partial<T> =>
  Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as Partial<T>;

/** Any failure as the service (or the client, when no answer came) named it: its code and message, and when to retry. */
async function asOperation<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof LibraryError)
      throw new OperationError(error.code, error.message, error.retryAfter ?? undefined);
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
        const page = await library.search({
          q: args.query,
          ...scope,
          ...filterOf(args.filter),
          ...given({ limit: args.limit, kind: args.kind?.join(','), min_score: args.min_score, cursor: args.cursor }),
        });
        return page.data;
      }),
    grep: (args) =>
      asOperation(
        async () =>
          (
            await library.grep({
              pattern: args.pattern,
              ...scope,
              ...filterOf(args.filter),
              ...given({ case_sensitive: args.case_sensitive, file_id: args.file_id, cursor: args.cursor }),
            })
          ).data,
      ),
    ask: (args) =>
      asOperation(() =>
        library.chat(
          { question: args.question },
          { ...scope, ...filterOf(args.filter), ...given({ conversationId: args.conversation_id }) },
        ),
      ),
    remember: (args) =>
      asOperation(() =>
        library.capture({
          text: args.text,
          ...scope,
          ...given({ title: args.title, source_ref: args.source_ref, metadata: args.metadata as Metadata | undefined }),
        }),
      ),
    listDocuments: (args) =>
      asOperation(
        async () =>
          (
            await library.documents.list({
              ...scope,
              ...filterOf(args.filter),
              ...given({ limit: args.limit, cursor: args.cursor, source_ref: args.source_ref }),
            })
          ).data,
      ),
    readDocument: (args) =>
      asOperation(() =>
        library.documents.content(args.id, { ...scope, ...given({ fromLine: args.from_line, lines: args.lines }) }),
      ),
    forget: (args) => asOperation(() => library.documents.delete(args.id, scope)),
  };
}
