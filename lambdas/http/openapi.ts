import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import * as z from 'zod/mini';
import { GREP_BUDGETS } from '../core/grep.js';
import { CONTENT_PAGE_BYTES, FILE_LINK_SECONDS } from '../core/reading.js';
import { LIMITS } from '../core/limits.js';
import { MAX_QUERY_TERMS } from '../core/query-terms.js';
import type { RouteDefinition, RouteRequest } from './route.js';
import { ROUTES, type RouteName } from '../routes.js';
import { ERROR_STATUS, type ErrorCode } from './errors.js';
import { formatEvent } from './event-stream.js';
import * as s from './schemas.js';

/**
 * GET /v1/openapi.json: the API as OpenAPI 3.1, generated from the schemas
 * that validate requests (http/schemas.ts). It lists every status each
 * operation can return, with its body and headers, so that a generated client
 * (test/contract/openapi-codegen.test.ts compiles one) types every answer:
 * a rejected capture is a receipt, not an error body.
 *
 * What each operation can answer, and why:
 * - every answer carries `x-request-id`;
 * - 429 on every operation (a key's rate; on AWS the routes without a key are
 *   throttled per route), 500 (a bug) and 503 (a backend, the key check or the
 *   function itself is unavailable: on AWS the gateway answers it in the
 *   contract's error body, lib/constructs/gateway-responses.ts);
 * - 401 on the routes behind the key;
 * - 400, 413, 415 on the routes that read a JSON body;
 * - 422 `invalid_request` on every route: each validates its query (a
 *   parameter it does not take is refused, docs/api-notes.md "Parameters"),
 *   and its path and body where it has them; POST /v1/capture answers 422
 *   with a rejected receipt for a bad item, the Error for a bad parameter;
 * - 409 `not_ready` where a document's text is read back before it is known;
 * - 404 where an id names something that may not exist;
 * - 404 for an unknown path and 405 (with `Allow`) for a wrong method are
 *   answered for any path, so they are components here, not on operations.
 */

/** A route's OpenAPI text; its parameters and body are its contract's (lambdas/endpoints/<route>/contract.ts). */
interface RouteDoc {
  tag: Tag;
  description: string;
  /** Examples of the request body. */
  requestExamples?: Record<string, { summary: string; value: unknown }>;
  /** The responses particular to the route: its successes, and answers whose body is not the Error. */
  responses: ZodOpenApiResponsesObject;
  /** Whether an id in the path may name nothing (404). */
  notFound?: boolean;
  /** Whether it reads a document's text, which may not be known yet (409 `not_ready`). */
  notReady?: boolean;
  /** A public route that takes a key when one is sent (health: a valid key adds details). */
  optionalKey?: boolean;
}

const TAGS = [
  { name: 'Capture', description: 'Store texts and files in a library. A capture answers with a receipt: created, deduped or rejected.' },
  { name: 'Search', description: 'Find material by meaning and words (search), or every literal occurrence of a string (grep).' },
  { name: 'Documents', description: 'List, read and delete the documents of a library.' },
  { name: 'Chat', description: 'Answers grounded in a library, citing it.' },
  { name: 'End users', description: "The tenant's end users, each with a library of its own, and their erasure." },
  { name: 'Usage', description: "The tenant's spend." },
  { name: 'Bucket', description: "The tenant's own S3 or R2 bucket for the raw files it captures (docs/bucket.md)." },
  { name: 'MCP', description: 'The library as a Model Context Protocol server, for AI assistants (docs/api-notes.md, "MCP").' },
  { name: 'Service', description: 'Health and this description; no key needed.' },
] as const;
type Tag = (typeof TAGS)[number]['name'];

// ---- headers

const RequestIdHeader = {
  description: 'The request id, also in an error body as `request_id`: quote it when reporting a problem.',
  required: true,
  schema: { type: 'string', examples: ['req_01JD7ZQ8W3M4X9N2B5C6V7K8P0'] },
} as const;

const RetryAfterHeader = {
  description: 'Seconds to wait before sending the request again.',
  required: true,
  schema: { type: 'integer', minimum: 0, examples: [1] },
} as const;

const requestIdOnly = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };
const withRetryAfter = { ...requestIdOnly, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } };

// ---- examples

const REQUEST_ID = 'req_01JD7ZQ8W3M4X9N2B5C6V7K8P0';
const FILE_ID = 'file_01JD7ZQ8W3M4X9N2B5C6V7K8P1';
const DATE = '2026-11-22T06:41:03.123456';
const METADATA = { project: 'apollo', year: 2024, tags: ['meeting', 'q3'] };

const CHAT_EXAMPLE = {
  reply: 'You ship on Friday [1].', artifacts: [],
  sources: [{ kind: 'file', title: 'Meeting notes', snippet: '3: We ship on Friday.', file_id: FILE_ID, metadata: METADATA }],
  tokens_used: 812, run_id: 'run_01JD7ZQ8W3M4X9N2B5C6V7K8P2', conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
} as const;

const errorExample = (code: ErrorCode, message: string, retryAfter?: number) => ({
  error: { code, message, request_id: REQUEST_ID, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) },
});

const receiptExamples = {
  created: {
    ok: true, status: 'created', dedup: false, detail: 'stored and indexed: findable by words and by meaning',
    id: FILE_ID, file_id: FILE_ID, reject_code: null, retryable: null, source_ref: 'notes/meeting.md',
  },
  deduped: {
    ok: true, status: 'deduped', dedup: true, detail: 'the same content is already in this library',
    id: FILE_ID, file_id: FILE_ID, reject_code: null, retryable: null, source_ref: 'notes/meeting.md',
  },
  rejected: {
    ok: false, status: 'rejected', dedup: false, detail: 'the text is empty or whitespace',
    id: null, file_id: null, reject_code: 'empty_content', retryable: false, source_ref: null,
  },
  unavailable: {
    ok: false, status: 'rejected', dedup: false, detail: 'a storage or model backend is unavailable; nothing was stored; retry',
    id: null, file_id: null, reject_code: 'backend_unavailable', retryable: true, source_ref: null,
  },
} as const;

const documentExample = {
  id: FILE_ID, file_id: FILE_ID, title: 'Meeting notes', filename: null, content_type: 'text/plain; charset=utf-8',
  source_ref: 'notes/meeting.md', size_bytes: 1834, sha256: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
  kind: 'text', status: 'ready', failure_reason: null, findable_by_words: true, findable_by_meaning: true,
  passages: 3, passages_embedded: 3, created_at: DATE, storage: 'service', line_count: 42, page_count: null, metadata: METADATA,
};

// ---- responses

const json = (schema: unknown, example?: unknown) => ({
  'application/json': { schema, ...(example !== undefined ? { example } : {}) },
}) as ZodOpenApiResponseObject['content'];

/** The error answers, one component each: the Error body with its code. */
const ERROR_RESPONSES = {
  invalid_json: { id: 'InvalidJson', description: 'The body is not UTF-8 JSON whose top level is an object (or it repeats a key).', message: 'body: not valid JSON' },
  unauthorized: { id: 'Unauthorized', description: 'Missing, malformed, unknown or revoked API key.', message: 'missing Authorization: Bearer <API_KEY>' },
  not_found: { id: 'NotFound', description: "Nothing with this id in the caller's library (or an unknown path).", message: `document ${FILE_ID} not found` },
  not_ready: { id: 'NotReady', description: "The document's text is not extracted yet (`status` `processing`; try again once it is known), or never will be (`failed`: `failure_reason` says why).", message: `document ${FILE_ID} is not ready: its text is still being extracted` },
  method_not_allowed: { id: 'MethodNotAllowed', description: 'A known path with a method it does not take; `Allow` lists the methods it takes.', message: 'POST is not allowed on /v1/search; use GET' },
  payload_too_large: { id: 'PayloadTooLarge', description: `The request body is over ${LIMITS.requestBodyBytes} bytes.`, message: `request body over ${LIMITS.requestBodyBytes} bytes` },
  unsupported_media_type: { id: 'UnsupportedMediaType', description: 'A body sent without `Content-Type: application/json`.', message: 'Content-Type must be application/json' },
  invalid_request: { id: 'InvalidRequest', description: 'Well-formed, but breaks the contract; `message` names the field, or the query parameter the operation does not take (`lmit: unknown parameter`).', message: 'limit: Too big: expected number to be <=50' },
  bucket_unreachable: { id: 'BucketUnreachable', description: 'PUT /v1/bucket: the probe could not reach the bucket; `message` names the step (write, read, compare, delete, assume role) and what to check.', message: 'write: the bucket "acme-library" at https://example.r2.cloudflarestorage.com could not be reached (ENOTFOUND); check the endpoint and region, and that the bucket accepts connections from the internet; try again if it was throttling' },
  bucket_access_denied: { id: 'BucketAccessDenied', description: 'PUT /v1/bucket: the bucket (or STS) refused a probe step; `message` names the step and what to check.', message: 'write: the bucket "acme-library" refused writing the probe object "library/.library-probe/3f2a" (AccessDenied (HTTP 403)); check that the credentials allow s3:PutObject on "acme-library/library/*"' },
  rate_limited: { id: 'RateLimited', description: "Over the key's rate; wait `Retry-After` seconds.", message: 'over the rate of 20 requests/s for this key' },
  internal_error: { id: 'InternalError', description: 'A bug; nothing half-written was kept.', message: 'internal error; nothing half-written was kept' },
  unavailable: { id: 'Unavailable', description: 'A backend is unavailable; nothing was done; safe to retry after `Retry-After` seconds.', message: 'a backend is unavailable; safe to retry' },
} as const satisfies Record<ErrorCode, { id: string; description: string; message: string }>;

const RETRY_AFTER: Partial<Record<ErrorCode, number>> = { rate_limited: 1, unavailable: 1 };

const errorResponses = Object.fromEntries(
  (Object.keys(ERROR_RESPONSES) as ErrorCode[]).map((code) => {
    const spec = ERROR_RESPONSES[code];
    const retryAfter = RETRY_AFTER[code];
    const headers: Record<string, unknown> =
      code === 'method_not_allowed'
        ? { ...requestIdOnly, Allow: { description: 'The methods the path takes.', required: true, schema: { type: 'string', examples: ['GET'] } } }
        : retryAfter !== undefined ? withRetryAfter : requestIdOnly;
    const response: ZodOpenApiResponseObject = {
      id: spec.id,
      description: `\`${code}\`: ${spec.description}`,
      headers: headers as ZodOpenApiResponseObject['headers'],
      content: json(s.ErrorResponse, errorExample(code, spec.message, retryAfter)),
    };
    return [code, response];
  }),
) as Record<ErrorCode, ZodOpenApiResponseObject>;

const error = (code: ErrorCode) => ({ [String(ERROR_STATUS[code])]: errorResponses[code] });

const success = (description: string, schema: unknown, example: unknown, headers: object = requestIdOnly): ZodOpenApiResponseObject => ({
  description,
  headers: headers as ZodOpenApiResponseObject['headers'],
  content: json(schema, example),
});

/** A 503 whose body is the route's own (a rejected receipt, health's report) or, from the gateway, the Error. */
const ownOr503 = (description: string, schema: z.ZodMiniType, example: unknown): ZodOpenApiResponseObject => ({
  description: `${description} On AWS the gateway may answer a 503 itself (the function or the key check unavailable) with the Error body.`,
  headers: withRetryAfter as ZodOpenApiResponseObject['headers'],
  content: {
    'application/json': {
      schema: z.union([schema, s.ErrorResponse]),
      examples: {
        own: { summary: 'from the service', value: example },
        gateway: { summary: 'from the gateway', value: errorExample('unavailable', 'a backend timed out; safe to retry', 1) },
      },
    },
  },
});

const page = { has_more: false, next_cursor: null };

const bucketExample = {
  provider: 'r2', bucket: 'acme-library', region: 'auto', endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com', prefix: 'library/', auth: 'keys', verified_at: DATE,
} as const;
const EXTERNAL_ID = 'lib-4kFq0v2x9Lr8TqMZ1cJb7sWnYhE3aPdG';
const PRINCIPAL = 'arn:aws:iam::123456789012:role/library-bucket-access';

/** PUT /v1/bucket's 422: a field breaks a rule, or the probe failed at a step. */
const probeFailures: ZodOpenApiResponseObject = {
  description: '`invalid_request` (a field breaks a rule; `message` names it, `endpoint` included when it is not https to a public address), `bucket_access_denied` or `bucket_unreachable` (the probe failed; `message` names the step). Nothing was registered; a registration there was stays.',
  headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
  content: {
    'application/json': {
      schema: s.ErrorResponse,
      examples: {
        invalid: { summary: 'endpoint refused', value: errorExample('invalid_request', 'endpoint: must use https') },
        denied: { summary: 'write refused', value: errorExample('bucket_access_denied', ERROR_RESPONSES.bucket_access_denied.message) },
        unreachable: { summary: 'bucket unreachable', value: errorExample('bucket_unreachable', ERROR_RESPONSES.bucket_unreachable.message) },
      },
    },
  },
};

/** Each route's documentation: the operations iterate ROUTES, so a route without an entry here does not compile. */
const ROUTE_DOCS: Record<RouteName, RouteDoc> = {
  health: {
    tag: 'Service',
    description:
      '`ok`: everything works. `degraded` (200): the embedder cannot embed; captures are still stored and queued, words and grep still answer. `unavailable` (503, `Retry-After`): a store the service needs is failing. No key is needed: without one (or with one that is not valid) the answer is only the status, version, backend and embedder name and dimensions. With a valid key it adds why (`embedder.state` and `detail`, the indexing backlog, each store\'s state), which can name internal addresses and upstream errors.',
    optionalKey: true,
    responses: {
      '200': {
        description: 'The service is `ok` or `degraded`.',
        headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
        content: {
          'application/json': {
            schema: s.HealthResponse,
            examples: {
              anonymous: { summary: 'without a key', value: { status: 'degraded', version: '0.1.0', backend: 'local', embedder: { name: 'openai-compatible:nomic-embed-text', dimensions: 768 } } },
              keyed: {
                summary: 'with a valid key',
                value: {
                  status: 'degraded', version: '0.1.0', backend: 'local',
                  embedder: { name: 'openai-compatible:nomic-embed-text', dimensions: 768, state: 'degraded', detail: 'the embedding server answered HTTP 503' },
                  ingest: { backlog_documents: 3, backlog_passages: 41 }, dependencies: { database: { state: 'ok', detail: null }, blobs: { state: 'ok', detail: null } },
                },
              },
            },
          },
        },
      },
      '503': ownOr503('The service is `unavailable`: a store it needs is failing (with a valid key, `dependencies` says which).', s.HealthResponse, {
        status: 'unavailable', version: '0.1.0', backend: 'local', embedder: { name: 'use-512', dimensions: 512 },
      }),
    },
  },
  openapi: {
    tag: 'Service',
    description: 'This description. `servers` names where it was served (on AWS, with the stage), so a client generated from it calls the same API.',
    responses: {
      '200': success('The OpenAPI 3.1 document.', { type: 'object', additionalProperties: true }, undefined),
    },
  },
  capture: {
    tag: 'Capture',
    description:
      'Stores one text (`text`) or file (`content_base64` with `filename` and `content_type`) in the library. The body is always the receipt: 201 created, 200 deduped (the same payload is already in this library; `id` is the existing document), 422 rejected for good, 503 rejected and retryable (`backend_unavailable`, `Retry-After`). A rejected capture leaves nothing behind. A malformed item is a rejected receipt (`invalid_item`), never a 422 `invalid_request`.',
    requestExamples: {
      text: { summary: 'a text', value: { text: '# Meeting notes\n\nWe ship on Friday.', title: 'Meeting notes', source_ref: 'notes/meeting.md' } },
      file: { summary: 'a file', value: { content_base64: 'JVBERi0xLjcK...', filename: 'report.pdf', content_type: 'application/pdf', end_user_id: 'user-42' } },
    },
    responses: {
      '201': success('`created`: stored (or durably queued for extraction).', s.Receipt, receiptExamples.created),
      '200': success('`deduped`: the same payload is already in this library.', s.Receipt, receiptExamples.deduped),
      '422': {
        description: '`rejected`, not retryable: `reject_code` says why, `detail` how. A query parameter (the route takes none: `end_user_id` goes in the body) is refused before the body is read, with the Error body (`invalid_request`).',
        headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
        content: {
          'application/json': {
            schema: z.union([s.Receipt, s.ErrorResponse]),
            examples: {
              rejected: { summary: 'a rejected capture', value: receiptExamples.rejected },
              parameter: { summary: 'a query parameter', value: errorExample('invalid_request', 'end_user_id: unknown parameter') },
            },
          },
        },
      },
      '503': ownOr503('`rejected` with `backend_unavailable`: nothing was stored; send it again after `Retry-After`.', s.Receipt, receiptExamples.unavailable),
    },
  },
  'capture-batch': {
    tag: 'Capture',
    description: `Captures 1 to ${LIMITS.batchItems} items in request order, each with a receipt of its own: a bad item is rejected on its receipt and the others go on. An item's own \`end_user_id\` wins over the batch's. More than ${LIMITS.batchItems} items, none, or \`items\` not an array: 422 \`invalid_request\`, nothing stored.`,
    requestExamples: {
      batch: { summary: 'two items', value: { items: [{ text: 'first note' }, { text: '' }], end_user_id: 'user-42' } },
    },
    responses: {
      '200': success('One receipt per item, in request order.', s.CaptureBatchResponse, {
        total: 2, succeeded: 1,
        results: [{ index: 0, ...receiptExamples.created, source_ref: null }, { index: 1, ...receiptExamples.rejected }],
      }),
    },
  },
  search: {
    tag: 'Search',
    description: `Ranks by meaning and by the query's words together (hybrid); the words matched are at most ${MAX_QUERY_TERMS} of the query's (the longest, when it has more). \`from_keyword\` says whether a result was (also) found by its own words (a short memory found only through the words of the memories captured around it has false). \`score\` is absolute, in [0, 1] and comparable between queries: results keep the ranking's order, and the first scores how relevant the query's best result is at all (by the share of the query's words it holds, and by its meaning on one scale for every embedder), so a query that matches nothing in words or meaning scores low throughout; \`min_score\` keeps only results at or above a threshold.`,
    responses: {
      '200': success('A page of results, best first.', s.SearchResponse, {
        query: 'when do we ship', count: 1,
        results: [{ id: FILE_ID, kind: 'file_excerpt', snippet: 'We ship on Friday.', score: 0.82, from_keyword: true, content_date: DATE, title: 'Meeting notes', source_ref: 'notes/meeting.md', metadata: METADATA }],
        ...page,
      }),
    },
  },
  grep: {
    tag: 'Search',
    description:
      'Every line holding the pattern, matched literally (no regular expressions); newest document first, then line. ' +
      `A page reads at most ${GREP_BUDGETS.pageBytes / 2 ** 20} MiB of document text and scans at most ${GREP_BUDGETS.pageMs / 1000} s; when either runs out it answers the lines found so far ` +
      'with `has_more` true and a `next_cursor`, so a page may hold fewer lines than `limit`, even none: follow `next_cursor` until `has_more` is false ' +
      '(walking the pages yields every matching line once).',
    responses: {
      '200': success('A page of matching lines.', s.GrepResponse, {
        pattern: 'Friday', count: 1,
        results: [{ file_id: FILE_ID, title: 'Meeting notes', source_ref: 'notes/meeting.md', line: 3, snippet: '3: We ship on Friday.', content_date: DATE, metadata: METADATA }],
        ...page,
      }),
    },
  },
  'documents-list': {
    tag: 'Documents',
    description: 'The documents of the library, newest first; `source_ref` keeps only those with exactly that source_ref.',
    responses: { '200': success('A page of documents.', s.DocumentsResponse, { count: 1, documents: [documentExample], ...page }) },
  },
  'document-get': {
    tag: 'Documents',
    description: "One document of the caller's library (404 outside it), with where its indexing stands.",
    notFound: true,
    responses: { '200': success('The document.', s.Document, documentExample) },
  },
  'document-update': {
    tag: 'Documents',
    description:
      "Changes the document's `title`, `source_ref` or `metadata` (a merge patch, RFC 7396: a key with null removes it); the text, its passages and vectors stay. Search, grep, the document list and filters see the change as soon as this answers. 404 outside the caller's library; 422 naming the field or key when the result breaks the rules.",
    notFound: true,
    requestExamples: {
      tag: { summary: 'tag it and retitle it', value: { title: 'Apollo kickoff', metadata: { project: 'apollo', year: 2024, tags: ['meeting'] } } },
      untag: { summary: 'remove a key', value: { metadata: { tags: null } } },
    },
    responses: { '200': success('The updated document.', s.Document, documentExample) },
  },
  'document-delete': {
    tag: 'Documents',
    description: 'Removes the document everywhere (metadata, index, blob); a later capture of the same payload is `created`.',
    notFound: true,
    responses: { '200': success('Deleted.', s.DeletedDocument, { id: FILE_ID, deleted: true, blobs_deleted: 1, blobs_pending: 0 }) },
  },
  // ---- reading a document back
  'document-content': {
    tag: 'Documents',
    description: [
      "The document's extracted text, a page of lines: the very lines grep reports and chat cites, numbered alike (a grep hit's `line` N is `lines[N - from_line]`), read from the index in the library's live generation. Lines are split on \\n, \\r\\n and \\r, without their breaks; a final line break ends the last line (`line_count` counts as the document's does).",
      '',
      `A page holds at most \`lines\` lines and stops early before a line that would take it past ${CONTENT_PAGE_BYTES / 2 ** 20} MiB of JSON (it always holds one line, however long): follow \`next_from_line\` until it is null. A \`from_line\` past the last line answers no lines and a null \`next_from_line\`.`,
      '',
      '409 `not_ready` while the text is not extracted yet (a queued file, `status` `processing` with `passages` null; a document still embedding reads already), and for a `failed` document, which has no text. 404 outside the caller\'s library.',
    ].join('\n'),
    notFound: true,
    notReady: true,
    responses: {
      '200': success('A page of lines.', s.DocumentContent, { id: FILE_ID, line_count: 42, from_line: 1, lines: ['# Meeting notes', '', 'We ship on Friday.'], next_from_line: 4 }),
    },
  },
  'document-file': {
    tag: 'Documents',
    description: [
      "The file as captured: its bytes with the `Content-Type` it is stored with (for a file, the type its bytes turned out to be) and `Content-Disposition: attachment` naming it (RFC 6266: `filename`, and `filename*` in UTF-8 when the name is not plain ASCII). A text push has no file: its text comes as `text/plain; charset=utf-8`, named after its title (`<title>.txt`, see docs/api-notes.md). A file kept in the tenant's own bucket is read there; one in a bucket the tenant no longer has registered is 404 (it is the customer's alone).",
      '',
      `On AWS a file answers \`302\` with a \`Location\` presigned for ${FILE_LINK_SECONDS} s (the service's storage, or the tenant's bucket with its own credentials) that answers the same headers: follow it without the \`Authorization\` header (fetch and curl -L drop it on another origin). The local stack answers 200 with the bytes. A text push always answers 200.`,
    ].join('\n'),
    notFound: true,
    notReady: true,
    responses: {
      '200': {
        description: "The file, in its own media type (`Content-Type`: the stored one; `text/plain; charset=utf-8` for a text push). A text push whose text is not readable yet (or that failed) is 409 `not_ready`.",
        headers: {
          ...requestIdOnly,
          'Content-Disposition': {
            description: 'Always an attachment, naming the file (RFC 6266, RFC 8187).',
            required: true,
            schema: { type: 'string', examples: [`attachment; filename="r_sum_.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`] },
          },
        } as ZodOpenApiResponseObject['headers'],
        content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream', description: 'The bytes of the file, in its own media type (see Content-Type).' } } } as ZodOpenApiResponseObject['content'],
      },
      '302': {
        description: `AWS, a file (not a text push): a URL that serves it with the same Content-Type and Content-Disposition for ${FILE_LINK_SECONDS} s. Follow it without the key.`,
        headers: {
          ...requestIdOnly,
          Location: { description: 'The presigned URL.', required: true, schema: { type: 'string', format: 'uri' } },
        } as ZodOpenApiResponseObject['headers'],
      },
    },
  },
  'end-users-list': {
    tag: 'End users',
    description: "Every end user under the calling key's tenant.",
    responses: {
      '200': success('A page of end users.', s.EndUsersResponse, {
        count: 1, end_users: [{ id: 'user-42', created_at: DATE, last_active_at: DATE, document_count: 7 }], ...page,
      }),
    },
  },
  'end-user-delete': {
    tag: 'End users',
    description: "Permanently erases the end user's library (`id` URL-encoded): documents, index entries, blobs, chats and creations. A new capture for that id starts an empty library.",
    notFound: true,
    responses: {
      '200': success('Erased.', s.ErasureResponse, { id: 'user-42', deleted: true, documents_deleted: 7, blobs_deleted: 2, messages_deleted: 4, blobs_pending: 0 }),
    },
  },
  chat: {
    tag: 'Chat',
    description: [
      'Answers from the selected library only, citing its sources; when nothing relevant is there, the reply says so and `sources` is empty. The question and the reply are kept and found by later searches (kind `chat`).',
      '',
      '**Conversations.** Every answer names its `conversation_id`; send it with the next question (same key, same `end_user_id`) and a follow-up is read in the light of the recent turns: "and when was that?" is searched together with what it points back to, and a language model is given the turns. A conversation id of another library or tenant, an erased one, or one never begun is 404 `not_found`.',
      '',
      '**Streamed replies.** With `Accept: text/event-stream` the answer is a stream of server-sent events: `start` at once (`ChatStreamStart`: `run_id`, `conversation_id`), `delta` for each piece of the reply as it is written (`ChatStreamDelta`: `text`), then `done` with the whole `ChatResponse`, the same body the JSON answer has. `done`\'s `reply` is the one to keep: the pieces add up to it except when the reply was replaced after it was written. A failure before `start` is the usual status with the `Error` body; after it, the stream ends with an `error` event whose data is the `Error` body. Lines starting with `:` are keep-alive comments. JSON stays the default (no `Accept`, `application/json` or `*/*`).',
    ].join('\n'),
    notFound: true,
    requestExamples: {
      question: { summary: 'a question', value: { question: 'When do we ship?', end_user_id: 'user-42' } },
      followUp: { summary: 'a follow-up in a conversation', value: { question: 'And who signs it off?', end_user_id: 'user-42', conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3' } },
    },
    responses: {
      '200': {
        description: 'The answer: JSON, or with `Accept: text/event-stream` the same answer streamed as server-sent events.',
        headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
        content: {
          ...json(s.ChatResponse, CHAT_EXAMPLE),
          'text/event-stream': {
            schema: { type: 'string', description: 'Server-sent events: `start` (ChatStreamStart), `delta` (ChatStreamDelta) for each piece of the reply, then `done` (ChatResponse) or `error` (Error).' },
            example: [
              formatEvent('start', { run_id: CHAT_EXAMPLE.run_id, conversation_id: CHAT_EXAMPLE.conversation_id }),
              formatEvent('delta', { text: 'You ship ' }),
              formatEvent('delta', { text: 'on Friday [1].' }),
              formatEvent('done', CHAT_EXAMPLE),
            ].join(''),
          },
        },
      },
    },
  },
  mcp: {
    tag: 'MCP',
    description: [
      "The Model Context Protocol over Streamable HTTP, stateless: each POST carries one JSON-RPC message and is answered with JSON (`Accept` must name both `application/json` and `text/event-stream`, as the protocol requires of clients). No session id is issued; GET and DELETE are 405. The session works on one library: the key's tenant, and the end user named by `end_user_id` (omitted: the shared library).",
      '',
      'Tools: `search`, `grep`, `ask`, `remember`, `list_documents`, `read_document`, `forget` (destructive). Resources: each document as `library://documents/{id}` (its text), listed a page at a time. A failed tool call is a result with `isError: true` whose text starts with the error code (`not_found: ...`). A notification is answered 202 with no body.',
      '',
      'Configure an assistant with this URL and the header `Authorization: Bearer <API_KEY>`, or run `npx library mcp --url URL --key KEY` as a stdio server (README, "AI assistants (MCP)").',
    ].join('\n'),
    requestExamples: {
      list: { summary: 'list the tools', value: { jsonrpc: '2.0', id: 1, method: 'tools/list' } },
      call: { summary: 'call a tool', value: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'search', arguments: { query: 'launch date', limit: 5 } } } },
    },
    responses: {
      '200': success('The JSON-RPC answer.', s.McpResponse, {
        jsonrpc: '2.0', id: 2,
        result: { content: [{ type: 'text', text: '{"query": "launch date", "count": 1, ...}' }], structuredContent: { query: 'launch date', count: 1, results: [], has_more: false, next_cursor: null } },
      }),
      '202': { description: 'A notification or a response from the client, accepted; no body.', headers: requestIdOnly as ZodOpenApiResponseObject['headers'] },
      '400': {
        description: '`invalid_json` (the body is not a JSON object: the Error body), or a message the protocol refuses (a JSON-RPC error).',
        headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
        content: {
          'application/json': {
            schema: z.union([s.ErrorResponse, s.McpResponse]),
            examples: {
              json: { summary: 'not JSON', value: errorExample('invalid_json', 'body: not valid JSON') },
              protocol: { summary: 'not a JSON-RPC message', value: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: Invalid JSON-RPC message' } } },
            },
          },
        },
      },
      '406': {
        description: '`Accept` does not name both `application/json` and `text/event-stream` (a JSON-RPC error).',
        headers: requestIdOnly as ZodOpenApiResponseObject['headers'],
        content: json(s.McpResponse, { jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' } }),
      },
    },
  },
  'bucket-trust-policy': {
    tag: 'Bucket',
    description: "The IAM trust policy a caller attaches to a role in its own AWS account so that the service can assume it: the principal is the deployment's dedicated role, the condition this tenant's external id (unique, unguessable, never changes). A local stack names the principal its operator configures, else the identity of its machine's AWS credentials; with neither it still answers, with the tenant's real external id, but names `arn:aws:iam::000000000000:role/library-local-no-aws-identity`, a principal IAM refuses, and refuses `role_arn` registrations (docs/bucket.md, \"Local stack\").",
    notFound: true,
    responses: {
      '200': success('The trust policy.', s.TrustPolicy, {
        service_principal_arn: PRINCIPAL, external_id: EXTERNAL_ID,
        trust_policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: PRINCIPAL }, Action: 'sts:AssumeRole', Condition: { StringEquals: { 'sts:ExternalId': EXTERNAL_ID } } }] },
      }),
    },
  },
  'bucket-put': {
    tag: 'Bucket',
    description: "Registers or replaces the tenant's bucket: by `role_arn` (S3 on AWS) or by an access key pair (S3, R2, S3-compatible). Before answering, the service writes a probe object under `prefix`, reads it back, compares it and deletes it; a failed step answers 422 and registers nothing (a registration there was stays). While registered, the raw bytes of captured files go to the bucket under `{prefix}shared/{file_id}` or `{prefix}end-users/{end_user_id}/{file_id}`.",
    requestExamples: {
      r2: { summary: 'R2 with keys', value: { provider: 'r2', bucket: 'acme-library', endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com', access_key_id: 'AKIAEXAMPLE', secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY' } },
      role: { summary: 'S3 with a role', value: { provider: 's3', bucket: 'acme-library', region: 'eu-west-1', prefix: 'library/', role_arn: 'arn:aws:iam::210987654321:role/library-access' } },
    },
    responses: {
      '200': success('Registered: the registration without secrets.', s.BucketRegistration, bucketExample),
      '422': probeFailures,
    },
  },
  'bucket-get': {
    tag: 'Bucket',
    description: "The tenant's registration (404 when none) with its health: `state` turns `failing` when a write, read or delete to the bucket failed after registration (`last_error`, `last_error_at`), and `ok` again after a write works.",
    notFound: true,
    responses: {
      '200': success('The registration and its health.', s.BucketStatus, {
        ...bucketExample, role_arn: null, state: 'failing', last_error: 'write: refused (AccessDenied (HTTP 403))', last_error_at: DATE, pending_deletes: 0,
      }),
    },
  },
  'bucket-delete': {
    tag: 'Bucket',
    description: "Unregisters the bucket (404 when none): later captures go to the service's storage; objects already in the bucket stay there, and the documents captured meanwhile stay in the library.",
    notFound: true,
    responses: { '200': success('Unregistered.', s.BucketUnregistered, { deleted: true }) },
  },
  usage: {
    tag: 'Usage',
    description: "The tenant's spend per day (UTC) between `from` and `to`, inclusive; default the current month.",
    responses: {
      '200': success('The spend.', s.UsageResponse, {
        tenant_id: 'acme', from: '2026-11-01', to: '2026-11-30', tokens_used: 812, chat_calls: 1, ocr_pages: 0, captures: 2,
        days: [{ date: '2026-11-22', tokens_used: 812, chat_calls: 1, ocr_pages: 0, captures: 2 }],
      }),
    },
  },
};

/** What the route's contract checks its request with (none: no parameters, no body). */
const requestOf = (route: RouteDefinition): RouteRequest => route.request ?? {};

function operationResponses(route: RouteDefinition, doc: RouteDoc): ZodOpenApiResponsesObject {
  const own = doc.responses;
  const { body } = requestOf(route);
  const codes: ErrorCode[] = [];
  if (body) codes.push('invalid_json');
  if (route.auth) codes.push('unauthorized');
  if (doc.notFound) codes.push('not_found');
  if (doc.notReady) codes.push('not_ready');
  if (body) codes.push('payload_too_large', 'unsupported_media_type');
  // Every operation checks its query (an unknown parameter is 422), whatever else it validates.
  codes.push('invalid_request');
  codes.push('rate_limited', 'internal_error', 'unavailable');
  const all: ZodOpenApiResponsesObject = { ...own };
  for (const code of codes) {
    const status = String(ERROR_STATUS[code]) as `4${string}`;
    if (!(status in all)) Object.assign(all, error(code));
  }
  // In status order, as a reader expects.
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => a.localeCompare(b))) as ZodOpenApiResponsesObject;
}

/**
 * The document with `servers` left to the caller (see withServer). Built
 * once per process: every request adds only its own `servers`.
 */
export function buildOpenApiDocument(version: string, serverUrl?: string) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of ROUTES) {
    const doc = ROUTE_DOCS[route.name];
    const { query, path, body } = requestOf(route);
    const operation: ZodOpenApiOperationObject = {
      operationId: route.name,
      summary: route.summary,
      description: doc.description,
      tags: [doc.tag],
      ...(route.auth ? {} : { security: doc.optionalKey ? [{}, { bearer: [] }] : [] }),
      requestParams: { ...(query ? { query } : {}), ...(path ? { path } : {}) },
      ...(body
        ? { requestBody: { required: true, content: { 'application/json': { schema: body, ...(doc.requestExamples ? { examples: doc.requestExamples } : {}) } } } }
        : {}),
      responses: operationResponses(route, doc),
    };
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    paths[route.path] = { ...(paths[route.path] ?? {}), [method]: operation };
  }
  const document = createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: 'Library API',
        version,
        description: [
          'A searchable library of documents and memories per tenant and end user, answering questions from it.',
          '',
          'Every call but `GET /v1/health` and `GET /v1/openapi.json` takes `Authorization: Bearer <API_KEY>`. Every answer carries `x-request-id`; every error has the `Error` body, whose `code` goes with its HTTP status. An unknown path answers 404 `not_found`, a known path with another method 405 `method_not_allowed` with `Allow` (the `NotFound` and `MethodNotAllowed` responses).',
          '',
          'An operation takes only the query parameters it lists: any other is 422 `invalid_request` naming it (`lmit: unknown parameter`). `end_user_id` is a query parameter on GET, DELETE and PATCH and a body field on POST, nowhere else, but for `POST /v1/mcp`, whose query takes it (its body is a protocol message).',
          '',
          '`servers` is where this document was served: its origin, and on AWS the stage; every path starts with `/v1`.',
        ].join('\n'),
      },
      servers: [{ url: serverUrl ?? '/' }],
      tags: TAGS.map((t) => ({ ...t })),
      security: [{ bearer: [] }],
      paths,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An API key: `Authorization: Bearer lib_...`.' } },
        headers: { RequestId: RequestIdHeader, RetryAfter: RetryAfterHeader } as never,
        // The data of a streamed chat's events (the operation's text/event-stream answer names them).
        schemas: { ChatStreamStart: s.ChatStreamStart, ChatStreamDelta: s.ChatStreamDelta, Filter: s.FilterSchema, MetadataPatch: s.MetadataPatchSchema },
        // Operations list the others (each becomes a component on first use); a wrong method can meet any path.
        responses: { MethodNotAllowed: { ...errorResponses.method_not_allowed, id: undefined } },
      },
    },
    {
      // Batch items are validated one by one (a bad one is rejected on its own receipt), so the request schema
      // takes any items; a client sends capture items, and the description says so.
      override: (ctx) => {
        if (ctx.zodSchema === s.CaptureItems) {
          ctx.jsonSchema.items = { $ref: '#/components/schemas/CaptureItem' };
        }
        // Objects the core checks (schemas.ts, checkedByCore) are documented with the shape it takes.
        const documentedAs = s.CHECKED_BY_CORE.get(ctx.zodSchema);
        if (documentedAs) {
          const id = (z.globalRegistry.get(documentedAs) as { id?: string } | undefined)?.id;
          const description = ctx.jsonSchema.description;
          for (const key of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[key];
          Object.assign(ctx.jsonSchema, { $ref: `#/components/schemas/${id}`, ...(description ? { description } : {}) });
        }
      },
    },
  );
  return document;
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

/** The document as served at one address: `servers` names it. */
export function withServer(document: OpenApiDocument, serverUrl: string | null): OpenApiDocument {
  return { ...document, servers: [{ url: serverUrl ?? '/', description: 'where this description was served' }] };
}

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const BASE_PATH = /^(?:\/[A-Za-z0-9._~-]+)*$/;
const DOCUMENT_PATH = ROUTES.find((r) => r.name === 'openapi')!.path;

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] ?? undefined : undefined;
}

/**
 * The API's base URL as the caller reached it, from the request: the scheme
 * (X-Forwarded-Proto, which API Gateway sets; else http locally and https on
 * AWS), the Host header, and what precedes /v1/openapi.json in the path the
 * caller requested (requestContext.path: on API Gateway's own domain the
 * stage, `/prod`; under a custom domain its base path; locally nothing).
 * Null when the Host header is missing or not a host name (then `servers`
 * is `/`).
 */
export function servedBaseUrl(event: APIGatewayProxyEvent): string | null {
  const host = header(event, 'host')?.trim();
  if (!host || !HOST.test(host)) return null;
  const stage = event.requestContext?.stage;
  const forwarded = header(event, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  const scheme = forwarded === 'http' || forwarded === 'https' ? forwarded : stage === 'local' || !stage ? 'http' : 'https';
  const requested = event.requestContext?.path ?? event.path ?? '';
  let base = '';
  if (requested.endsWith(DOCUMENT_PATH)) base = requested.slice(0, -DOCUMENT_PATH.length);
  else if (/\.execute-api\.[^.]+\.amazonaws\.com(?::\d+)?$/.test(host) && stage) base = `/${stage}`;
  if (!BASE_PATH.test(base)) base = '';
  return `${scheme}://${host}${base}`;
}
