/**
 * The library operations the MCP tools stand on (lambdas/mcp/tools.ts): one
 * interface, two implementations. `serviceOperations` (service-operations.ts)
 * calls the core's use cases in process, as the REST handlers do: the
 * Streamable HTTP endpoint (POST /v1/mcp). `clientOperations`
 * (bin/mcp-client-operations.ts) calls the API through `@library/client`:
 * the stdio server an assistant starts on its own machine (`library mcp`).
 *
 * Arguments and answers are the API's own shapes (snake_case, as the REST
 * bodies are), so both implementations answer alike; a failure is an
 * OperationError with the API's error code and message.
 */
import type { CaptureReceipt } from '../core/capture.js';
import type { ChatResponse } from '../core/chat/chat-service.js';
import type { GrepResult } from '../core/grep.js';
import type { SearchResult } from '../core/search.js';

/** A filter in the API's grammar (API.md, "Filters"), as a JSON object. */
export type FilterObject = Record<string, unknown>;
/** Metadata as given, checked by the service (API.md, "Metadata"; core/metadata.ts names a key that breaks a rule). */
export type MetadataObject = Record<string, unknown>;

export interface SearchArgs {
  query: string;
  limit?: number;
  kind?: string[];
  filter?: FilterObject;
  min_score?: number;
  cursor?: string;
}

/** A search result, as GET /v1/search answers it. */
export type SearchHit = SearchResult;

export interface SearchAnswer {
  query: string;
  count: number;
  results: SearchHit[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface GrepArgs {
  pattern: string;
  case_sensitive?: boolean;
  file_id?: string;
  filter?: FilterObject;
  cursor?: string;
}

export interface GrepAnswer {
  pattern: string;
  count: number;
  results: GrepResult[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface AskArgs {
  question: string;
  filter?: FilterObject;
  conversation_id?: string;
}

/** The chat response, as POST /v1/chat answers it. */
export type AskAnswer = ChatResponse;

export interface RememberArgs {
  text: string;
  title?: string;
  source_ref?: string;
  metadata?: MetadataObject;
}

/** The capture receipt, as POST /v1/capture answers it. */
export type Receipt = CaptureReceipt;

export interface ListDocumentsArgs {
  limit?: number;
  cursor?: string;
  filter?: FilterObject;
  source_ref?: string;
}

export interface DocumentSummary {
  id: string;
  title: string;
  source_ref: string | null;
  content_type: string;
  kind: string;
  status: string;
  created_at: string;
  line_count: number;
  metadata: Record<string, unknown>;
  /** And the rest of the API's document (filename, size_bytes, sha256, storage, ...), handed on as it came. */
}

export interface DocumentsAnswer {
  count: number;
  documents: DocumentSummary[];
  has_more: boolean;
  next_cursor: string | null;
}

export interface ReadDocumentArgs {
  id: string;
  from_line?: number;
  lines?: number;
}

export interface DocumentContent {
  id: string;
  line_count: number;
  from_line: number;
  lines: string[];
  next_from_line: number | null;
}

export interface ForgetArgs {
  id: string;
}

export interface Forgotten {
  id: string;
  deleted: true;
  blobs_deleted: number;
  blobs_pending: number;
}

/** What the tools may do with one library (the one the session is bound to). */
export interface LibraryOperations {
  search(args: SearchArgs): Promise<SearchAnswer>;
  grep(args: GrepArgs): Promise<GrepAnswer>;
  ask(args: AskArgs): Promise<AskAnswer>;
  /** Resolves to the receipt, a rejected one included. */
  remember(args: RememberArgs): Promise<Receipt>;
  listDocuments(args: ListDocumentsArgs): Promise<DocumentsAnswer>;
  readDocument(args: ReadDocumentArgs): Promise<DocumentContent>;
  forget(args: ForgetArgs): Promise<Forgotten>;
}

/** A failed operation: the API's error code (`not_found`, `invalid_request`, `rate_limited`, ...) and message. */
export class OperationError extends Error {
  override name = 'OperationError';
  constructor(
    readonly code: string,
    message: string,
    /** Seconds to wait before trying again (429, 503), when the service said. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
