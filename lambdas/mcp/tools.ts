import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  type CallToolResult,
  ErrorCode,
  ListResourcesRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { CHAT_LIMITS } from '../core/chat/limits.js';
import { isIdOf } from '../core/ids.js';
import { LIMITS } from '../core/limits.js';
import { ITEM_KINDS } from '../core/model.js';
import { type LibraryOperations, OperationError } from './operations.js';

/**
 * The MCP server of a library: one set of tools and one resource template,
 * defined here once, each a thin layer over LibraryOperations (operations.ts).
 * The Streamable HTTP endpoint (endpoints/mcp) builds one per request over
 * the core's services; `library mcp` builds one for its stdio over the typed
 * client. Each tool answers its result twice: `structuredContent` (the
 * API's JSON) and the same JSON as text, as the MCP specification asks of a
 * tool with an output schema. A failure is a tool error (`isError: true`)
 * whose text starts with the API's error code (`not_found: document ...`).
 */

export const MCP_SERVER_NAME = 'library';

/** The resource template of the library's documents. */
export const DOCUMENT_URI_PREFIX = 'library://documents/';

/** Documents per page of resources/list. */
export const RESOURCE_PAGE = 50;

/** A resource read returns at most this many lines (pages of the content route): a whole book is read with read_document. */
export const RESOURCE_MAX_LINES = 20_000;

const FILTER_DESCRIPTION =
  "Optional. Only material matching it is used. A JSON object in the library's filter grammar: fields `metadata.<key>`, `source_ref`, `title`, `kind`, " +
  '`content_type`, `created_at`, `content_date`, each with a value (equality) or operators `eq`, `ne`, `in`, `nin`, `gt`, `gte`, `lt`, `lte`, `exists`, `prefix`; ' +
  'combine with `{"and": [...]}`, `{"or": [...]}`, `{"not": {...}}`. Example: `{"metadata.project": "apollo", "created_at": {"gte": "2026-01-01"}}`.';

const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An argument that is a JSON object, handed on as parsed for the core to check
 * (core/filter.ts, core/metadata.ts: their messages name the path or key). A
 * zod record would rebuild it by assignment and lose a key named __proto__
 * (as http/schemas.ts checkedByCore says); `jsonSchema` is what the tool's
 * input schema shows.
 */
const jsonObject = (description: string, jsonSchema: Record<string, unknown> = {}) =>
  z
    .unknown()
    .refine(isJsonObject, 'expected a JSON object')
    .meta({ type: 'object', ...jsonSchema, description }) as unknown as z.ZodType<Record<string, unknown>>;

const filter = jsonObject(FILTER_DESCRIPTION).optional();
const metadata = z.record(z.string(), z.unknown());
const fileId = z.string().min(1).max(64);
/** As the REST routes read a query or a question (http/schemas.ts nonBlankText): 1 to `max` characters, not only white space. */
const nonBlankText = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((s) => s.trim().length > 0, 'must not be blank');

const page = { has_more: z.boolean(), next_cursor: z.string().nullable() };
/** The next page of a search, grep or list: the same arguments, and the previous answer's next_cursor. */
const cursor = z
  .string()
  .min(1)
  .optional()
  .describe('The next_cursor of the previous answer, to read the next page (with the same other arguments).');

const searchHit = z.looseObject({
  kind: z.string(),
  id: z.string(),
  file_id: z
    .string()
    .nullable()
    .describe('The document (`file_...`) for file_excerpt and image results; null for chat and creation results.'),
  title: z.string().nullable(),
  snippet: z.string(),
  score: z.number(),
  source_ref: z.string().nullable(),
  content_date: z.string(),
  metadata,
  line_start: z
    .number()
    .int()
    .describe("The passage's first line in the document (1-based), as read_document numbers it."),
  line_end: z.number().int(),
});

const grepLine = z.looseObject({
  file_id: z.string(),
  title: z.string().nullable(),
  source_ref: z.string().nullable(),
  line: z.number().int(),
  snippet: z.string(),
  content_date: z.string(),
  metadata,
});

const receipt = z.looseObject({
  ok: z.boolean(),
  status: z.enum(['created', 'deduped', 'rejected']),
  dedup: z.boolean(),
  detail: z.string(),
  id: z.string().nullable(),
  file_id: z.string().nullable(),
  reject_code: z.string().nullable(),
  retryable: z.boolean().nullable(),
  source_ref: z.string().nullable(),
});

const documentSummary = z.looseObject({
  id: z.string(),
  title: z.string(),
  source_ref: z.string().nullable(),
  content_type: z.string(),
  kind: z.string(),
  status: z.string(),
  created_at: z.string(),
  line_count: z.number().int(),
  metadata,
});

/*
 * Output schemas are loose objects (additional properties allowed): a client
 * checks structured content against them, and a service newer than the stdio
 * server (which hands the API's bodies on) may answer a field more.
 */

/** A tool's answer: the JSON as structured content, and as text beside it. */
function answer(structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }], structuredContent: structured };
}

/** A failure as a tool error: `code: message`, and when to retry (429, 503). */
export function toolError(error: unknown): CallToolResult {
  const failure = error instanceof OperationError ? error : new OperationError('internal_error', 'internal error');
  const retry = failure.retryAfterSeconds !== undefined ? ` Retry after ${failure.retryAfterSeconds} s.` : '';
  // Text only: clients check any structuredContent against the tool's output schema, errors' too (SDK 1.32).
  return { isError: true, content: [{ type: 'text', text: `${failure.code}: ${failure.message}${retry}` }] };
}

/** The MCP specification's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

/**
 * A failed resource read or list as a JSON-RPC error (resources have no tool
 * errors): its message `code: message` as a tool error's text; not_found is
 * the specification's "resource not found", a bad argument invalid params.
 */
function protocolError(error: unknown): Error & { code: number } {
  const failure = error instanceof OperationError ? error : new OperationError('internal_error', 'internal error');
  const retry = failure.retryAfterSeconds !== undefined ? ` Retry after ${failure.retryAfterSeconds} s.` : '';
  const code =
    failure.code === 'not_found'
      ? RESOURCE_NOT_FOUND
      : failure.code === 'invalid_request'
        ? ErrorCode.InvalidParams
        : ErrorCode.InternalError;
  // Not an McpError: its message would begin "MCP error <code>: ", and a client adds that prefix again. The SDK
  // answers any thrown error with its numeric `code` and its message as they are.
  return Object.assign(new Error(`${failure.code}: ${failure.message}${retry}`), { code });
}

/** A document id written in a resource's address, decoded (a malformed escape is a bad argument, not a failure). */
function documentIdOf(written: string): string {
  try {
    return decodeURIComponent(written);
  } catch {
    throw new OperationError('invalid_request', 'the document id in the address is not URL-encoded');
  }
}

async function run(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolError(error);
  }
}

/** The text of a document's lines for a resource read: pages of the content route, up to RESOURCE_MAX_LINES. */
async function documentText(ops: LibraryOperations, id: string): Promise<{ text: string; truncated: boolean }> {
  const lines: string[] = [];
  let from: number | null = 1;
  while (from !== null && lines.length < RESOURCE_MAX_LINES) {
    const content = await ops.readDocument({
      id,
      from_line: from,
      lines: Math.min(LIMITS.contentLines.max, RESOURCE_MAX_LINES - lines.length),
    });
    lines.push(...content.lines);
    from = content.next_from_line !== null && content.next_from_line > from ? content.next_from_line : null;
  }
  return { text: lines.join('\n'), truncated: from !== null };
}

/** The library's MCP server over these operations (one library: the one the operations are bound to). */
export function createMcpServer(ops: LibraryOperations, info: { version: string }): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: info.version },
    {
      instructions:
        "A library of the user's documents and memories. Use `search` to find material by meaning and words, `grep` for an exact string " +
        "(every occurrence, with line numbers), `ask` for an answer grounded in the library with its sources, `read_document` to read a document's lines, " +
        '`list_documents` to see what is there, `remember` to store a note, and `forget` (destructive) to delete a document.',
    },
  );

  server.registerTool(
    'search',
    {
      title: 'Search the library',
      description:
        "Hybrid search of the library by meaning and by the query's words. Returns the best passages with their document's title, a snippet, a score " +
        'in [0, 1] (absolute: about 0.5 and above is usually relevant), source_ref, file_id and metadata. Use it to find material before reading it with ' +
        'read_document (by file_id, at line_start) or to check facts; use grep instead for an exact string. When has_more is true, call again with ' +
        'cursor set to next_cursor for the next results.',
      inputSchema: z.strictObject({
        query: nonBlankText(LIMITS.queryChars).describe('What to look for, in plain words.'),
        limit: z
          .number()
          .int()
          .min(LIMITS.search.min)
          .max(LIMITS.search.max)
          .optional()
          .describe(`Results to return (default ${LIMITS.search.default}).`),
        kind: z
          .array(z.enum(ITEM_KINDS as [string, ...string[]]))
          .min(1)
          .optional()
          .describe(
            "Kinds to keep: file_excerpt (documents' text), image (photos), chat (past questions and answers), creation (tables and documents made by ask). Default: all.",
          ),
        filter,
        min_score: z.number().min(0).max(1).optional().describe('Only results scoring at least this (0 to 1).'),
        cursor,
      }),
      outputSchema: z.looseObject({ query: z.string(), count: z.number().int(), results: z.array(searchHit), ...page }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      run(async () => {
        const found = await ops.search(args);
        const results = found.results.map((hit) => ({
          kind: hit.kind,
          id: hit.id,
          file_id: hit.kind === 'file_excerpt' || hit.kind === 'image' ? hit.id : null,
          title: hit.title,
          snippet: hit.snippet,
          score: hit.score,
          from_keyword: hit.from_keyword,
          source_ref: hit.source_ref,
          content_date: hit.content_date,
          metadata: hit.metadata,
          line_start: hit.line_start,
          line_end: hit.line_end,
        }));
        return answer({
          query: found.query,
          count: found.count,
          results,
          has_more: found.has_more,
          next_cursor: found.next_cursor,
        });
      }),
  );

  server.registerTool(
    'grep',
    {
      title: 'Find an exact string',
      description:
        "Literal, exhaustive search for an exact string (no regular expressions) in the documents' text: every matching line with its document (file_id, title) " +
        'and 1-based line number, newest document first. Case-insensitive unless case_sensitive is true. Use it for names, codes and quotes that must match exactly; ' +
        'read around a hit with read_document (from_line). When has_more is true, call again with cursor set to next_cursor for the next lines.',
      inputSchema: z.strictObject({
        pattern: z.string().min(1).max(LIMITS.grepPatternChars).describe('The exact text to find.'),
        case_sensitive: z.boolean().optional().describe('Match case exactly (default false).'),
        file_id: fileId.optional().describe('Only this document (a `file_...` id).'),
        filter,
        cursor,
      }),
      outputSchema: z.looseObject({
        pattern: z.string(),
        count: z.number().int(),
        results: z.array(grepLine),
        ...page,
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(async () => answer({ ...(await ops.grep(args)) })),
  );

  server.registerTool(
    'ask',
    {
      title: 'Ask the library',
      description:
        'Answers a question from the library only, citing its sources (each with file_id and the cited lines, numbered as in read_document). When the library ' +
        'holds nothing relevant the reply says so and sources is empty: it never invents. The question and reply are remembered in the library (found later by ' +
        'search as kind chat). Pass the conversation_id of an earlier answer to ask a follow-up.',
      inputSchema: z.strictObject({
        question: nonBlankText(CHAT_LIMITS.questionChars).describe('The question, in plain words.'),
        filter,
        conversation_id: z
          .string()
          // As POST /v1/chat reads it: a malformed id is a bad argument, not a conversation that is not there.
          .refine(
            (id) => isIdOf('cnv', id),
            'must be a conversation id from an earlier ask (cnv_ and 26 ULID characters)',
          )
          .optional()
          .describe('Continue this conversation (the conversation_id of an earlier ask).'),
      }),
      outputSchema: z.looseObject({
        reply: z.string(),
        sources: z.array(
          z.looseObject({ kind: z.string(), title: z.string(), snippet: z.string(), file_id: z.string(), metadata }),
        ),
        artifacts: z.array(
          z.looseObject({
            id: z.string(),
            type: z.string(),
            title: z.string(),
            content_type: z.string(),
            content: z.string(),
          }),
        ),
        tokens_used: z.number(),
        run_id: z.string(),
        conversation_id: z.string(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    (args) => run(async () => answer({ ...(await ops.ask(args)) })),
  );

  server.registerTool(
    'remember',
    {
      title: 'Remember a note',
      description:
        'Stores a text in the library (a note, a fact, a summary) so that search, grep and ask find it later. Returns the capture receipt: status created, ' +
        "or deduped when the very same text is already there (its id is the existing document's). Give a title and a source_ref (where it came from) when known; " +
        'metadata (string, number, boolean or string-array values) can be filtered on later.',
      inputSchema: z.strictObject({
        text: z.string().min(1).describe('The text to store (up to 2 MiB).'),
        title: z.string().max(LIMITS.titleChars).optional().describe('Default: its first line.'),
        source_ref: z
          .string()
          .max(LIMITS.sourceRefChars)
          .optional()
          .describe('Where it comes from (a URL, a path, a reference); stored verbatim.'),
        metadata: jsonObject(
          'Up to 32 keys; values are strings, numbers, booleans or arrays of strings. Filters read it later (`metadata.<key>`).',
          {
            additionalProperties: {
              anyOf: [
                { type: 'string' },
                { type: 'number' },
                { type: 'boolean' },
                { type: 'array', items: { type: 'string' } },
              ],
            },
          },
        ).optional(),
      }),
      outputSchema: receipt,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) =>
      run(async () => {
        const stored = await ops.remember(args);
        if (stored.status !== 'rejected') return answer({ ...stored });
        // A rejected capture is a tool error that still carries its receipt.
        const retry = stored.retryable ? ' It may be retried.' : '';
        return {
          isError: true,
          content: [{ type: 'text', text: `${stored.reject_code}: ${stored.detail}${retry}` }],
          structuredContent: { ...stored },
        };
      }),
  );

  server.registerTool(
    'list_documents',
    {
      title: 'List documents',
      description:
        "The library's documents, newest first, a page at a time: id (file_...), title, source_ref, kind, status (ready, processing, failed), line_count, " +
        'created_at and metadata. When has_more is true, call again with cursor set to next_cursor (and the same filter and source_ref).',
      inputSchema: z.strictObject({
        limit: z
          .number()
          .int()
          .min(LIMITS.documents.min)
          .max(LIMITS.documents.max)
          .optional()
          .describe(`Documents per page (default ${LIMITS.documents.default}).`),
        cursor,
        filter,
        source_ref: z
          .string()
          .max(LIMITS.sourceRefChars)
          .optional()
          .describe('Only documents with exactly this source_ref.'),
      }),
      outputSchema: z.looseObject({ count: z.number().int(), documents: z.array(documentSummary), ...page }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(async () => answer({ ...(await ops.listDocuments(args)) })),
  );

  server.registerTool(
    'read_document',
    {
      title: 'Read a document',
      description:
        "A document's extracted text by lines, numbered as grep and ask cite them: lines[k] is line from_line + k. Reads up to `lines` lines (default 1000) " +
        'from from_line (default 1); next_from_line is where to continue, null at the end. Fails with not_ready while a just-captured file is being read.',
      inputSchema: z.strictObject({
        id: fileId.describe("The document's id (`file_...`), from search, grep, ask or list_documents."),
        from_line: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1).'),
        lines: z
          .number()
          .int()
          .min(LIMITS.contentLines.min)
          .max(LIMITS.contentLines.max)
          .optional()
          .describe(`How many lines (default ${LIMITS.contentLines.default}).`),
      }),
      outputSchema: z.looseObject({
        id: z.string(),
        line_count: z.number().int(),
        from_line: z.number().int(),
        lines: z.array(z.string()),
        next_from_line: z.number().int().nullable(),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => run(async () => answer({ ...(await ops.readDocument(args)) })),
  );

  server.registerTool(
    'forget',
    {
      title: 'Delete a document',
      description:
        'DESTRUCTIVE: permanently deletes a document from the library everywhere (its text, its index entries, its file); it cannot be undone. ' +
        'Only call it when the user asked to delete this document; confirm the id (list_documents or search) first.',
      inputSchema: z.strictObject({ id: fileId.describe('The id (`file_...`) of the document to delete.') }),
      outputSchema: z.looseObject({
        id: z.string(),
        deleted: z.literal(true),
        blobs_deleted: z.number().int(),
        blobs_pending: z.number().int(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    (args) => run(async () => answer({ ...(await ops.forget(args)) })),
  );

  server.registerResource(
    'document',
    new ResourceTemplate(`${DOCUMENT_URI_PREFIX}{id}`, { list: undefined }),
    {
      title: 'A document of the library',
      description: "A document's extracted text, its lines as read_document numbers them.",
      mimeType: 'text/plain',
    },
    async (uri, variables): Promise<ReadResourceResult> => {
      const id = String(Array.isArray(variables.id) ? variables.id[0] : variables.id);
      try {
        const { text } = await documentText(ops, documentIdOf(id));
        return { contents: [{ uri: uri.href, mimeType: 'text/plain; charset=utf-8', text }] };
      } catch (error) {
        throw protocolError(error);
      }
    },
  );

  // resources/list with paging: the SDK's template list callback takes no cursor, so the list is answered here,
  // a page of documents at a time, the API's cursor as the MCP cursor.
  server.server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    try {
      const listed = await ops.listDocuments({ limit: RESOURCE_PAGE, cursor: request.params?.cursor });
      return {
        resources: listed.documents.map((doc) => ({
          uri: `${DOCUMENT_URI_PREFIX}${encodeURIComponent(doc.id)}`,
          name: doc.id,
          title: doc.title,
          mimeType: 'text/plain',
          ...(doc.source_ref ? { description: `source_ref: ${doc.source_ref}` } : {}),
        })),
        ...(listed.has_more && listed.next_cursor ? { nextCursor: listed.next_cursor } : {}),
      };
    } catch (error) {
      throw protocolError(error);
    }
  });

  return server;
}
