import type { Receipt } from './types.js';

/**
 * Every failure the client raises. `status` is the HTTP status (0 when no
 * response came: a connection failure, a timeout or a cancellation), `code`
 * the contract's error code (`unauthorized`, `rate_limited`, ...) or one of
 * the client's own (`connection_failed`, `timeout`, `aborted`,
 * `invalid_response`), `requestId` the service's `x-request-id` when known.
 */
export class LibraryError extends Error {
  override name = 'LibraryError';
  readonly status: number;
  readonly code: string;
  readonly requestId: string | null;
  /** Seconds the service asked to wait (429, 503), when it said. */
  readonly retryAfter: number | null;
  /** The parsed response body, when there was one. */
  readonly body: unknown;
  /** The method and URL of the request that failed. */
  readonly request: { method: string; url: string } | null;

  constructor(init: {
    message: string;
    status: number;
    code: string;
    requestId?: string | null;
    retryAfter?: number | null;
    body?: unknown;
    request?: { method: string; url: string } | null;
    cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.body = init.body;
    this.request = init.request ?? null;
  }
}

/** The HTTP status the contract gives each error code (an `error` event of a stream carries only the code). */
const STATUS_OF_CODE: Record<string, number> = {
  invalid_json: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  not_ready: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  invalid_request: 422,
  bucket_unreachable: 422,
  bucket_access_denied: 422,
  rate_limited: 429,
  internal_error: 500,
  unavailable: 503,
};

export const statusOfCode = (code: string): number => STATUS_OF_CODE[code] ?? 500;

/** No answer: DNS, refused or reset connection, TLS. The message names the URL and the cause. */
export class LibraryConnectionError extends LibraryError {
  override name = 'LibraryConnectionError';
}

/** No answer within `timeoutMs` (per attempt). */
export class LibraryTimeoutError extends LibraryError {
  override name = 'LibraryTimeoutError';
}

/** The caller's AbortSignal fired. */
export class LibraryAbortError extends LibraryError {
  override name = 'LibraryAbortError';
}

/** Thrown by `capture(..., { throwOnReject: true })` for a rejected receipt. */
export class CaptureRejectedError extends LibraryError {
  override name = 'CaptureRejectedError';
  readonly receipt: Receipt;
  constructor(
    receipt: Receipt,
    status: number,
    requestId: string | null,
    request: { method: string; url: string } | null,
  ) {
    super({
      message: `capture rejected: ${receipt.reject_code ?? 'rejected'}: ${receipt.detail}`,
      status,
      code: receipt.reject_code ?? 'rejected',
      requestId,
      body: receipt,
      request,
    });
    this.receipt = receipt;
  }
}

/** A human-readable cause of a failed fetch: undici hides it in `cause` (`ECONNREFUSED 127.0.0.1:9`). */
export function describeCause(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    const message = typeof e.message === 'string' ? e.message : String(current);
    const code = typeof e.code === 'string' ? e.code : null;
    const text = code && !message.includes(code) ? `${code}: ${message}` : message;
    if (text && text !== 'fetch failed' && !parts.includes(text)) parts.push(text);
    current = e.cause;
  }
  return parts.length ? parts.join(': ') : String(error);
}
