import { contentTypeFor, filenameFromDisposition, toBase64, toBytes } from './content.js';
import {
  CaptureRejectedError,
  LibraryConnectionError,
  LibraryError,
  LibraryTimeoutError,
  statusOfCode,
} from './errors.js';
import { type Filter, filterParam, type Metadata, type MetadataPatch } from './filter.js';
import { readEvents } from './sse.js';
import { abortError, type RawResponse, type RequestOptions, Transport, type TransportOptions } from './transport.js';
import type {
  BatchReceipt,
  BatchResponse,
  BucketRegistration,
  BucketRequest,
  BucketStatus,
  BucketUnregistered,
  CaptureItem,
  ChatRequest,
  ChatResponse,
  ChatStreamEvent,
  DeletedDocument,
  Document,
  DocumentContent,
  DocumentsParams,
  DocumentsResponse,
  EndUser,
  EndUsersParams,
  EndUsersResponse,
  Erasure,
  GrepParams,
  GrepResponse,
  GrepResult,
  HealthResponse,
  Receipt,
  SearchParams,
  SearchResponse,
  SearchResult,
  TrustPolicy,
  UsageParams,
  UsageResponse,
} from './types.js';

export type LibraryOptions = TransportOptions;

/**
 * The capture field that says "this is the new version of the document at
 * this source_ref" (older documents with it are removed once this one is
 * stored). See the service's docs/api-notes.md.
 */
export const REPLACE_FIELD = 'replace_source_ref';

/** A capture item, plus the replace-by-source_ref flag. */
export type CaptureInput = CaptureItem & { replace_source_ref?: boolean };

export interface CaptureOptions extends RequestOptions {
  /** Throw `CaptureRejectedError` for a rejected receipt instead of returning it. */
  throwOnReject?: boolean;
}

export interface CaptureFileOptions extends CaptureOptions {
  /** Default: the File's name; required for bytes. */
  filename?: string;
  /** Default: from the name, else the bytes. */
  content_type?: string;
  title?: string;
  source_ref?: string;
  end_user_id?: string;
  /** The document's metadata, which filters read (`metadata.<key>`). */
  metadata?: Metadata;
  /** Replace older documents with this source_ref once this one is stored. */
  replace_source_ref?: boolean;
}

export interface BatchOptions extends RequestOptions {
  end_user_id?: string;
  /** Send again the items rejected as retryable (`backend_unavailable`), with backoff. Default true. */
  retryRejected?: boolean;
}

export type FileData = Uint8Array | ArrayBuffer | Blob;

export interface ChatOptions extends RequestOptions {
  /** Goes on with this conversation (the `conversation_id` of an earlier answer, in the same library). */
  conversationId?: string;
  end_user_id?: string;
  /** Only documents matching it are used as evidence (overrides the question object's `filter`). */
  filter?: Filter;
}

/** What `documents.update` changes: any of `title`, `source_ref` (null removes it) and `metadata` (a merge patch: a key with null removes it, keys not named stay). */
export interface DocumentUpdate {
  title?: string;
  source_ref?: string | null;
  /** A merge patch on the metadata (a key with null removes it); null removes every key. */
  metadata?: MetadataPatch | null;
}

/** Which lines `documents.content` reads: from `fromLine` (1-based, default 1), at most `lines` (1 to 5000, default 1000). */
export interface ContentOptions extends RequestOptions {
  fromLine?: number;
  lines?: number;
  end_user_id?: string;
}

/** One line of a document's text, numbered as grep and chat number it. */
export interface DocumentLine {
  line: number;
  text: string;
}

/** A document's file (`documents.file`): its bytes, the media type and the name it was sent with. */
export interface DocumentFile {
  bytes: Uint8Array;
  contentType: string;
  /** From `Content-Disposition` (its UTF-8 `filename*` when sent); null when the answer named none. */
  filename: string | null;
  /** The `x-request-id` of the API's answer, when the bytes came from it (not after a redirect). */
  requestId: string | null;
}

/**
 * Where a file can be fetched without the key (`documents.fileOrLink`): the
 * service's short-lived link (AWS: a presigned URL) that answers the file with
 * its type and name. Open it (a browser downloads it), or fetch it.
 */
export interface DocumentFileLink {
  url: string;
  expiresInSeconds: number;
  filename: string;
  contentType: string;
}

/** The media type that asks the file route for its link as JSON instead of a redirect. */
export const FILE_LINK_MEDIA_TYPE = 'application/vnd.library.file-link+json';

interface Paged {
  has_more: boolean;
  next_cursor: string | null;
}

/**
 * One page of a list. `items` are this page's; `for await (const x of page)`
 * walks this page and every following one; `nextPage()` fetches the next.
 */
export class Page<T, B extends Paged = Paged> implements AsyncIterable<T> {
  constructor(
    /** The response body as the API sent it. */
    readonly data: B,
    readonly items: T[],
    /** The `x-request-id` of the request that fetched this page. */
    readonly requestId: string | null,
    private readonly fetchPage: (cursor: string) => Promise<Page<T, B>>,
  ) {}

  get hasMore(): boolean {
    return this.data.has_more;
  }

  get nextCursor(): string | null {
    return this.data.next_cursor;
  }

  /** The next page, or null after the last. */
  async nextPage(): Promise<Page<T, B> | null> {
    return this.data.has_more && this.data.next_cursor ? this.fetchPage(this.data.next_cursor) : null;
  }

  /** This page and the following ones. */
  async *pages(): AsyncGenerator<Page<T, B>> {
    let page: Page<T, B> | null = this;
    while (page) {
      yield page;
      page = await page.nextPage();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.items;
  }
}

function chatBody(
  question: string | ChatRequest,
  options: { conversationId?: string; end_user_id?: string; filter?: Filter },
): ChatRequest {
  const body: ChatRequest = typeof question === 'string' ? { question } : { ...question };
  if (options.conversationId !== undefined) body.conversation_id = options.conversationId;
  if (options.end_user_id !== undefined) body.end_user_id = options.end_user_id;
  if (options.filter !== undefined) body.filter = options.filter;
  return body;
}

function parseData(
  data: string,
  requestId: string | null,
  request: { method: string; url: string },
): Record<string, unknown> {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw new LibraryError({
    message: `an event from ${request.method} ${request.url} is not a JSON object`,
    status: 0,
    code: 'invalid_response',
    requestId,
    body: data,
    request,
  });
}

/** The service's `error` event (the contract's error body) as the LibraryError the same failure before the stream would be. */
function streamedError(
  body: Record<string, unknown>,
  requestId: string | null,
  request: { method: string; url: string },
): LibraryError {
  const error = (body.error ?? {}) as {
    code?: unknown;
    message?: unknown;
    request_id?: unknown;
    retry_after?: unknown;
  };
  const code = typeof error.code === 'string' ? error.code : 'internal_error';
  return new LibraryError({
    message:
      typeof error.message === 'string' ? error.message : `the stream from ${request.method} ${request.url} failed`,
    status: statusOfCode(code),
    code,
    requestId: typeof error.request_id === 'string' ? error.request_id : requestId,
    retryAfter: typeof error.retry_after === 'number' ? error.retry_after : null,
    body,
    request,
  });
}

function isReceipt(body: unknown): body is Receipt {
  return !!body && typeof body === 'object' && 'status' in body && 'ok' in body && 'reject_code' in body;
}

/**
 * The Library API. Works in Node 20+ and in browsers (for a file path, use
 * `@library/client/node`).
 *
 * ```ts
 * const lib = new Library({ baseUrl: 'https://abc.execute-api.eu-west-1.amazonaws.com/prod/v1/', apiKey });
 * const receipt = await lib.capture({ text: 'The harbour opens at dawn.', source_ref: 'notes/harbour' });
 * for await (const hit of lib.searchAll({ q: 'when does the harbour open' })) console.log(hit.snippet);
 * ```
 */
/** A file's bytes and what its headers say of them. */
function documentFile(response: RawResponse<Uint8Array>): DocumentFile {
  return {
    bytes: response.body,
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    filename: filenameFromDisposition(response.headers.get('content-disposition')),
    requestId: response.requestId,
  };
}

export class Library {
  protected readonly transport: Transport;

  constructor(options: LibraryOptions) {
    this.transport = new Transport(options);
  }

  /** The normalized base URL requests go to (without `/v1`). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /** `GET /v1/health` (no key needed; the key is sent, so a valid one gets the details: embedder state, backlog, stores). A 503 `unavailable` health body is returned, not thrown. */
  async health(options: RequestOptions = {}): Promise<HealthResponse> {
    const response = await this.transport.request<HealthResponse>(
      {
        method: 'GET',
        path: '/v1/health',
        idempotent: true,
        retry503: false,
        accept: (status, body) => status === 503 && !!body && typeof body === 'object' && 'status' in body,
      },
      options,
    );
    return response.body;
  }

  /**
   * `POST /v1/capture`: a text (`capture('...')` or `{ text }`) or a file
   * (`{ content_base64, filename, content_type }`). Resolves to the receipt,
   * rejected ones included (`receipt.ok === false`), unless `throwOnReject`.
   * A retryable rejection (503 `backend_unavailable`) is retried first.
   */
  async capture(item: string | CaptureInput, options: CaptureOptions = {}): Promise<Receipt> {
    const body = typeof item === 'string' ? { text: item } : item;
    const response = await this.transport.request<Receipt>(
      {
        method: 'POST',
        path: '/v1/capture',
        body,
        idempotent: true,
        accept: (status, b) => (status === 422 || status === 503) && isReceipt(b),
      },
      options,
    );
    return this.checkReceipt(response, options);
  }

  /**
   * Captures bytes (a `Uint8Array`, `ArrayBuffer`, `Blob` or browser `File`)
   * as a file: the filename comes from the File or `options.filename`, the
   * type from the name, else the bytes.
   */
  async captureFile(data: FileData, options: CaptureFileOptions = {}): Promise<Receipt> {
    const named = (data as unknown as { name?: unknown }).name;
    const filename = options.filename ?? (typeof named === 'string' && named ? named : undefined);
    if (!filename) throw new TypeError('captureFile needs options.filename for bytes');
    const bytes = await toBytes(data);
    const blobType = typeof Blob !== 'undefined' && data instanceof Blob && data.type ? data.type : undefined;
    const { throwOnReject, signal, timeoutMs, retries, content_type, ...fields } = options;
    const item: CaptureInput = {
      ...fields,
      filename,
      content_type: content_type ?? blobType ?? contentTypeFor(filename, bytes),
      content_base64: toBase64(bytes),
    };
    return this.capture(item, { throwOnReject, signal, timeoutMs, retries });
  }

  /**
   * `POST /v1/capture/batch` with 1 to 20 items. Items rejected as retryable
   * are sent again with backoff (unless `retryRejected: false`); the answer
   * keeps the request's order and indexes.
   */
  async captureBatch(items: CaptureInput[], options: BatchOptions = {}): Promise<BatchResponse> {
    const { end_user_id, retryRejected = true, ...call } = options;
    const send = async (subset: CaptureInput[]) =>
      (
        await this.transport.request<BatchResponse>(
          {
            method: 'POST',
            path: '/v1/capture/batch',
            body: { items: subset, ...(end_user_id !== undefined ? { end_user_id } : {}) },
            idempotent: true,
          },
          call,
        )
      ).body;
    const first = await send(items);
    if (!retryRejected) return first;
    const results: BatchReceipt[] = [...first.results];
    const attempts = call.retries ?? 4;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const again = results.filter((r) => r.status === 'rejected' && r.retryable);
      if (!again.length) break;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 500 * 2 ** attempt));
      if (call.signal?.aborted) break;
      const answer = await send(again.map((r) => items[r.index]!));
      answer.results.forEach((receipt, i) => {
        const index = again[i]!.index;
        results[index] = { ...receipt, index };
      });
    }
    return { total: first.total, succeeded: results.filter((r) => r.ok).length, results };
  }

  /**
   * `GET /v1/search`: one page; iterate it (`for await`) to walk every page.
   * `filter` (sent as JSON) limits the search to what matches it; every page
   * keeps it (a cursor works only with the same filter).
   */
  async search(params: SearchParams, options: RequestOptions = {}): Promise<Page<SearchResult, SearchResponse>> {
    const query = { ...params, filter: filterParam(params.filter) };
    const fetchPage = async (cursor?: string): Promise<Page<SearchResult, SearchResponse>> => {
      const response = await this.transport.request<SearchResponse>(
        { method: 'GET', path: '/v1/search', query: { ...query, ...(cursor ? { cursor } : {}) }, idempotent: true },
        options,
      );
      return new Page(response.body, response.body.results, response.requestId, fetchPage);
    };
    return fetchPage();
  }

  /** Every search result of every page. */
  async *searchAll(params: SearchParams, options: RequestOptions = {}): AsyncGenerator<SearchResult> {
    yield* await this.search(params, options);
  }

  /**
   * `GET /v1/grep`: one page of matching lines; iterate it to walk every page.
   * A page may hold fewer lines than `limit`, even none, with more to come
   * (each page reads and scans within a budget): iterating walks on.
   */
  async grep(params: GrepParams, options: RequestOptions = {}): Promise<Page<GrepResult, GrepResponse>> {
    const { case_sensitive, filter, ...rest } = params;
    const query = {
      ...rest,
      filter: filterParam(filter),
      ...(case_sensitive !== undefined ? { case_sensitive: case_sensitive ? 'true' : 'false' } : {}),
    };
    const fetchPage = async (cursor?: string): Promise<Page<GrepResult, GrepResponse>> => {
      const response = await this.transport.request<GrepResponse>(
        { method: 'GET', path: '/v1/grep', query: { ...query, ...(cursor ? { cursor } : {}) }, idempotent: true },
        options,
      );
      return new Page(response.body, response.body.results, response.requestId, fetchPage);
    };
    return fetchPage();
  }

  /** Every matching line of every page. */
  async *grepAll(params: GrepParams, options: RequestOptions = {}): AsyncGenerator<GrepResult> {
    yield* await this.grep(params, options);
  }

  /** Documents: list (one page; `filter` to list only what matches), iterate (all), get, update, delete, read back. */
  readonly documents = {
    list: async (
      params: DocumentsParams = {},
      options: RequestOptions = {},
    ): Promise<Page<Document, DocumentsResponse>> => {
      const query = { ...params, filter: filterParam(params.filter) };
      const fetchPage = async (cursor?: string): Promise<Page<Document, DocumentsResponse>> => {
        const response = await this.transport.request<DocumentsResponse>(
          {
            method: 'GET',
            path: '/v1/documents',
            query: { ...query, ...(cursor ? { cursor } : {}) },
            idempotent: true,
          },
          options,
        );
        return new Page(response.body, response.body.documents, response.requestId, fetchPage);
      };
      return fetchPage(params.cursor);
    },
    iterate: (params: DocumentsParams = {}, options: RequestOptions = {}): AsyncIterable<Document> => {
      const list = this.documents.list;
      return {
        async *[Symbol.asyncIterator]() {
          yield* await list(params, options);
        },
      };
    },
    get: async (id: string, params: { end_user_id?: string } = {}, options: RequestOptions = {}): Promise<Document> =>
      (
        await this.transport.request<Document>(
          { method: 'GET', path: '/v1/documents/{id}', pathParams: { id }, query: params, idempotent: true },
          options,
        )
      ).body,
    /**
     * `PATCH /v1/documents/{id}`: changes the title, the source_ref (null
     * removes it) or the metadata, a merge patch (a key with a value sets it,
     * a key with null removes it, keys not named stay). Resolves to the
     * updated document; search, grep, lists and filters see the change at
     * once. The text cannot be patched (capture the new version with
     * `replace_source_ref`); nothing is embedded again.
     *
     * ```ts
     * await lib.documents.update(id, { metadata: { status: 'done', draft: null } });
     * ```
     */
    update: async (
      id: string,
      patch: DocumentUpdate,
      params: { end_user_id?: string } = {},
      options: RequestOptions = {},
    ): Promise<Document> =>
      (
        await this.transport.request<Document>(
          {
            method: 'PATCH',
            path: '/v1/documents/{id}',
            pathParams: { id },
            query: params,
            body: patch,
            idempotent: true,
          },
          options,
        )
      ).body,
    delete: async (
      id: string,
      params: { end_user_id?: string } = {},
      options: RequestOptions = {},
    ): Promise<DeletedDocument> =>
      (
        await this.transport.request<DeletedDocument>(
          { method: 'DELETE', path: '/v1/documents/{id}', pathParams: { id }, query: params, idempotent: false },
          options,
        )
      ).body,
    /**
     * `GET /v1/documents/{id}/content`: one page of the document's lines
     * (`lines[k]` is line `from_line + k`, the numbers grep reports);
     * `next_from_line` is where the next page starts, null at the end. A
     * document whose text is not extracted yet throws `LibraryError` with
     * code `not_ready` (409).
     */
    content: async (id: string, options: ContentOptions = {}): Promise<DocumentContent> => {
      const { fromLine, lines, end_user_id, ...call } = options;
      const query = { from_line: fromLine, lines, end_user_id };
      return (
        await this.transport.request<DocumentContent>(
          { method: 'GET', path: '/v1/documents/{id}/content', pathParams: { id }, query, idempotent: true },
          call,
        )
      ).body;
    },
    /**
     * Every line of the document from `fromLine` on, page after page
     * (`lines` per page), each with its number.
     *
     * ```ts
     * for await (const { line, text } of lib.documents.iterateLines(hit.file_id)) console.log(line, text);
     * ```
     */
    iterateLines: (id: string, options: ContentOptions = {}): AsyncIterable<DocumentLine> => {
      const content = this.documents.content;
      return {
        async *[Symbol.asyncIterator]() {
          let from: number | null = options.fromLine ?? 1;
          while (from !== null) {
            const page: DocumentContent = await content(id, { ...options, fromLine: from });
            for (const [k, text] of page.lines.entries()) yield { line: page.from_line + k, text };
            // A page that made no progress would loop for ever: stop rather than ask again.
            from = page.next_from_line !== null && page.next_from_line > from ? page.next_from_line : null;
          }
        },
      };
    },
    /**
     * `GET /v1/documents/{id}/file`: the file as captured (a text push: its
     * text, as `text/plain; charset=utf-8`), with its media type and name.
     * A redirect (AWS answers a presigned URL) is followed; fetch drops the
     * key on the way, as it must.
     */
    file: async (
      id: string,
      params: { end_user_id?: string } = {},
      options: RequestOptions = {},
    ): Promise<DocumentFile> => documentFile(await this.requestFile(id, params, '*/*', options)),
    /**
     * `GET /v1/documents/{id}/file` for a browser page: where the service
     * answers a file with a link (AWS), the link, which the page opens (a page
     * can neither read a redirect nor, under a strict Content-Security-Policy,
     * fetch another origin); where it answers the bytes (the local stack, a
     * text push), the file.
     */
    fileOrLink: async (
      id: string,
      params: { end_user_id?: string } = {},
      options: RequestOptions = {},
    ): Promise<{ link: DocumentFileLink } | { file: DocumentFile }> => {
      const response = await this.requestFile(id, params, `${FILE_LINK_MEDIA_TYPE}, */*;q=0.1`, options);
      const file = documentFile(response);
      if (file.contentType.split(';')[0]!.trim().toLowerCase() !== FILE_LINK_MEDIA_TYPE) return { file };
      const link = JSON.parse(new TextDecoder().decode(response.body)) as {
        url: string;
        expires_in_seconds: number;
        filename: string;
        content_type: string;
      };
      return {
        link: {
          url: link.url,
          expiresInSeconds: link.expires_in_seconds,
          filename: link.filename,
          contentType: link.content_type,
        },
      };
    },
  };

  /**
   * `POST /v1/chat`: an answer from the library, citing it. The answer names
   * its `conversation_id`: pass it as `conversationId` with the next
   * question to follow up (`"And when was that?"`). `filter` limits the
   * evidence to the documents matching it.
   */
  async chat(question: string | ChatRequest, options: ChatOptions = {}): Promise<ChatResponse> {
    const { conversationId, end_user_id, filter, ...call } = options;
    const body = chatBody(question, { conversationId, end_user_id, filter });
    return (
      await this.transport.request<ChatResponse>({ method: 'POST', path: '/v1/chat', body, idempotent: false }, call)
    ).body;
  }

  /**
   * `POST /v1/chat` as server-sent events: iterate it for `start` (the run
   * and conversation ids, at once), `delta` (the reply's text as it is
   * written) and `done` (the whole response, as `chat` returns it; its
   * `reply` is the one to keep). The request is sent when iteration starts.
   * Failures are `LibraryError`s as for `chat`, also one the service reports
   * after the stream has started (its `error` event); `signal` cancels, and
   * `timeoutMs` is the longest wait for the response and then between two
   * chunks (the service sends a keep-alive every 15 s). Leaving the loop
   * early stops reading; the service still finishes (and keeps) the chat.
   *
   * ```ts
   * for await (const event of lib.chatStream('When is the launch?', { conversationId })) {
   *   if (event.type === 'delta') process.stdout.write(event.text);
   *   if (event.type === 'done') conversationId = event.response.conversation_id;
   * }
   * ```
   */
  async *chatStream(
    question: string | ChatRequest,
    options: ChatOptions = {},
  ): AsyncGenerator<ChatStreamEvent, void, undefined> {
    const { conversationId, end_user_id, filter, ...call } = options;
    const body = chatBody(question, { conversationId, end_user_id, filter });
    const opened = await this.transport.openStream(
      { method: 'POST', path: '/v1/chat', body, idempotent: false, mediaType: 'text/event-stream' },
      call,
    );
    if (!('stream' in opened)) {
      // A service that answered JSON (it does not stream): the same events, from the whole answer.
      const response = opened.body as ChatResponse;
      yield { type: 'start', run_id: response.run_id, conversation_id: response.conversation_id };
      if (response.reply) yield { type: 'delta', text: response.reply };
      yield { type: 'done', response };
      return;
    }
    const where = { method: opened.method, url: opened.url };
    let idle = false;
    let ended = false;
    try {
      const events = readEvents(opened.stream, {
        idleMs: opened.timeoutMs,
        onIdle: () => {
          idle = true;
          opened.abort();
        },
      });
      for await (const { event, data } of events) {
        if (event === 'start' || event === 'delta' || event === 'done' || event === 'error') {
          const parsed = parseData(data, opened.requestId, where);
          if (event === 'start') yield { type: 'start', ...(parsed as { run_id: string; conversation_id: string }) };
          else if (event === 'delta') yield { type: 'delta', text: String((parsed as { text?: unknown }).text ?? '') };
          else if (event === 'done') {
            ended = true;
            yield { type: 'done', response: parsed as ChatResponse };
          } else {
            ended = true;
            throw streamedError(parsed, opened.requestId, where);
          }
        }
      }
      if (!ended)
        throw new LibraryConnectionError({
          message: `the stream from ${where.method} ${where.url} ended before its final event`,
          status: 0,
          code: 'connection_failed',
          requestId: opened.requestId,
          request: where,
        });
    } catch (error) {
      if (error instanceof LibraryError) throw error;
      if (opened.aborted() && call.signal) throw abortError(call.signal, where);
      if (idle)
        throw new LibraryTimeoutError({
          message: `no event from ${where.method} ${where.url} within ${opened.timeoutMs} ms`,
          status: 0,
          code: 'timeout',
          requestId: opened.requestId,
          request: where,
          cause: error,
        });
      throw new LibraryConnectionError({
        message: `the stream from ${where.method} ${where.url} broke: ${(error as Error)?.message ?? String(error)}`,
        status: 0,
        code: 'connection_failed',
        requestId: opened.requestId,
        request: where,
        cause: error,
      });
    } finally {
      opened.release();
    }
  }

  /** End users: list (one page), iterate (all), erase. */
  readonly endUsers = {
    list: async (
      params: EndUsersParams = {},
      options: RequestOptions = {},
    ): Promise<Page<EndUser, EndUsersResponse>> => {
      const fetchPage = async (cursor?: string): Promise<Page<EndUser, EndUsersResponse>> => {
        const response = await this.transport.request<EndUsersResponse>(
          {
            method: 'GET',
            path: '/v1/end-users',
            query: { ...params, ...(cursor ? { cursor } : {}) },
            idempotent: true,
          },
          options,
        );
        return new Page(response.body, response.body.end_users, response.requestId, fetchPage);
      };
      return fetchPage(params.cursor);
    },
    iterate: (params: EndUsersParams = {}, options: RequestOptions = {}): AsyncIterable<EndUser> => {
      const list = this.endUsers.list;
      return {
        async *[Symbol.asyncIterator]() {
          yield* await list(params, options);
        },
      };
    },
    /** Permanently erases the end user's library. */
    erase: async (id: string, options: RequestOptions = {}): Promise<Erasure> =>
      (
        await this.transport.request<Erasure>(
          { method: 'DELETE', path: '/v1/end-users/{id}', pathParams: { id }, idempotent: false },
          options,
        )
      ).body,
  };

  /**
   * The tenant's own bucket for raw files (docs/bucket.md): the trust policy
   * for a role, register (probed before it answers; a failed step is a
   * LibraryError with code `bucket_access_denied` or `bucket_unreachable`),
   * read with health, unregister.
   */
  readonly bucket = {
    trustPolicy: async (options: RequestOptions = {}): Promise<TrustPolicy> =>
      (
        await this.transport.request<TrustPolicy>(
          { method: 'GET', path: '/v1/bucket/trust-policy', idempotent: true },
          options,
        )
      ).body,
    register: async (registration: BucketRequest, options: RequestOptions = {}): Promise<BucketRegistration> =>
      (
        await this.transport.request<BucketRegistration>(
          { method: 'PUT', path: '/v1/bucket', body: registration, idempotent: true },
          options,
        )
      ).body,
    get: async (options: RequestOptions = {}): Promise<BucketStatus> =>
      (await this.transport.request<BucketStatus>({ method: 'GET', path: '/v1/bucket', idempotent: true }, options))
        .body,
    unregister: async (options: RequestOptions = {}): Promise<BucketUnregistered> =>
      (
        await this.transport.request<BucketUnregistered>(
          { method: 'DELETE', path: '/v1/bucket', idempotent: false },
          options,
        )
      ).body,
  };

  /** `GET /v1/usage` (default: the current month). */
  async usage(params: UsageParams = {}, options: RequestOptions = {}): Promise<UsageResponse> {
    return (
      await this.transport.request<UsageResponse>(
        { method: 'GET', path: '/v1/usage', query: params, idempotent: true },
        options,
      )
    ).body;
  }

  /** `GET /v1/documents/{id}/file`, accepting `mediaType`. */
  private requestFile(
    id: string,
    params: { end_user_id?: string },
    mediaType: string,
    options: RequestOptions,
  ): Promise<RawResponse<Uint8Array>> {
    return this.transport.request<Uint8Array>(
      {
        method: 'GET',
        path: '/v1/documents/{id}/file',
        pathParams: { id },
        query: params,
        idempotent: true,
        binary: true,
        mediaType,
      },
      options,
    );
  }

  private checkReceipt(response: RawResponse<Receipt>, options: CaptureOptions): Receipt {
    const receipt = response.body;
    if (!isReceipt(receipt)) {
      throw new LibraryError({
        message: `not a capture receipt from ${response.method} ${response.url}`,
        status: response.status,
        code: 'invalid_response',
        requestId: response.requestId,
        body: receipt,
        request: { method: response.method, url: response.url },
      });
    }
    if (!receipt.ok && options.throwOnReject)
      throw new CaptureRejectedError(receipt, response.status, response.requestId, {
        method: response.method,
        url: response.url,
      });
    return receipt;
  }
}
