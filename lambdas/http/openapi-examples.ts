import type { ErrorCode } from './errors.js';

/**
 * The examples more than one route's OpenAPI text shows, and the error
 * answers' (http/openapi.ts): the document's examples name the same file,
 * date and request id throughout. A route's own are in its openapi.ts.
 */

export const REQUEST_ID = 'req_01JD7ZQ8W3M4X9N2B5C6V7K8P0';
export const FILE_ID = 'file_01JD7ZQ8W3M4X9N2B5C6V7K8P1';
export const DATE = '2026-11-22T06:41:03.123456';
export const METADATA = { project: 'apollo', year: 2024, tags: ['meeting', 'q3'] };

export const errorExample = (code: ErrorCode, message: string, retryAfter?: number) => ({
  error: { code, message, request_id: REQUEST_ID, ...(retryAfter !== undefined ? { retry_after: retryAfter } : {}) },
});

export const receiptExamples = {
  created: {
    ok: true,
    status: 'created',
    dedup: false,
    detail: 'stored and indexed: findable by words and by meaning',
    id: FILE_ID,
    file_id: FILE_ID,
    reject_code: null,
    retryable: null,
    source_ref: 'notes/meeting.md',
  },
  deduped: {
    ok: true,
    status: 'deduped',
    dedup: true,
    detail: 'the same content is already in this library',
    id: FILE_ID,
    file_id: FILE_ID,
    reject_code: null,
    retryable: null,
    source_ref: 'notes/meeting.md',
  },
  rejected: {
    ok: false,
    status: 'rejected',
    dedup: false,
    detail: 'the text is empty or whitespace',
    id: null,
    file_id: null,
    reject_code: 'empty_content',
    retryable: false,
    source_ref: null,
  },
  unavailable: {
    ok: false,
    status: 'rejected',
    dedup: false,
    detail: 'a storage or model backend is unavailable; nothing was stored; retry',
    id: null,
    file_id: null,
    reject_code: 'backend_unavailable',
    retryable: true,
    source_ref: null,
  },
} as const;

export const documentExample = {
  id: FILE_ID,
  file_id: FILE_ID,
  title: 'Meeting notes',
  filename: null,
  content_type: 'text/plain; charset=utf-8',
  source_ref: 'notes/meeting.md',
  size_bytes: 1834,
  sha256: 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c',
  kind: 'text',
  status: 'ready',
  failure_reason: null,
  findable_by_words: true,
  findable_by_meaning: true,
  passages: 3,
  passages_embedded: 3,
  created_at: DATE,
  storage: 'service',
  line_count: 42,
  page_count: null,
  metadata: METADATA,
};

/** The end of a list's last page. */
export const page = { has_more: false, next_cursor: null };

export const bucketExample = {
  provider: 'r2',
  bucket: 'acme-library',
  region: 'auto',
  endpoint: 'https://0123456789abcdef.r2.cloudflarestorage.com',
  prefix: 'library/',
  auth: 'keys',
  verified_at: DATE,
} as const;
