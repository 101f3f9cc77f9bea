/**
 * Typed domain errors. The core throws these; the HTTP layer maps them to the
 * contract's status codes in exactly one place (lambdas/http/errors.ts).
 */
export type DomainErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'unauthorized'
  | 'unavailable'
  | 'rate_limited';

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalidRequest = (message: string) => new DomainError('invalid_request', message);
export const notFound = (message: string) => new DomainError('not_found', message);

/**
 * Thrown by adapters when a dependency is down or throttling. Safe to retry;
 * a capture that meets it is rejected `backend_unavailable` and leaves nothing behind.
 */
export class BackendUnavailableError extends Error {
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BackendUnavailableError';
  }
}

/**
 * Thrown by a write conditioned on a library's generation (its incarnation,
 * see docs/api-notes.md "Erasure") when that incarnation has ended: the
 * library was erased after the writer began. Nothing was written. A capture
 * that meets it starts afresh in the library's new incarnation.
 */
export class LibraryErasedError extends Error {
  constructor(message = 'the library was erased meanwhile') {
    super(message);
    this.name = 'LibraryErasedError';
  }
}

/** Reject codes a capture can end with (API.md, "reject_code values"). */
export type RejectCode =
  | 'invalid_item'
  | 'missing_content'
  | 'ambiguous_content'
  | 'invalid_base64'
  | 'too_large'
  | 'unsupported_type'
  | 'empty_content'
  | 'extraction_failed'
  | 'encrypted_document'
  | 'bucket_access_denied'
  | 'backend_unavailable';

/** Thrown inside the capture pipeline (by the core or an extractor) to reject one item. */
export class CaptureRejected extends Error {
  constructor(
    readonly rejectCode: RejectCode,
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'CaptureRejected';
  }
}
