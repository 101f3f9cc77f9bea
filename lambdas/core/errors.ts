/**
 * Typed domain errors. The core throws these; the HTTP layer maps them to the
 * contract's status codes in exactly one place (lambdas/http/errors.ts).
 */
export type DomainErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'unauthorized'
  | 'unavailable'
  | 'rate_limited'
  /** GET /v1/documents/{id}/content and /file: the document's text is not extracted yet (409). */
  | 'not_ready'
  /** PUT /v1/bucket: the probe could not reach the bucket (422). */
  | 'bucket_unreachable'
  /** PUT /v1/bucket: the bucket (or STS) refused a probe step (422). */
  | 'bucket_access_denied';

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
export const notReady = (message: string) => new DomainError('not_ready', message);

/**
 * Thrown by adapters when a dependency is down or throttling. Safe to retry;
 * a capture that meets it is rejected `backend_unavailable` and leaves nothing behind.
 */
export class BackendUnavailableError extends Error {
  /** What the caller is told (the message itself may name internals and is only logged); absent: the generic 503 message. */
  readonly publicMessage?: string;
  constructor(
    message: string,
    readonly retryAfterSeconds = 1,
    options?: { cause?: unknown; publicMessage?: string },
  ) {
    super(message, options);
    this.name = 'BackendUnavailableError';
    this.publicMessage = options?.publicMessage;
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

/**
 * Thrown by an extractor asked to read a file within a request when it has
 * no reader free for it now: the capture queues the file instead of waiting
 * (a request never queues behind another caller's file).
 */
export class ExtractionDeferred extends Error {
  constructor(message = 'every file reader is busy') {
    super(message);
    this.name = 'ExtractionDeferred';
  }
}

/** Reject codes a capture can end with (API.md, "reject_code values"). */
export type RejectCode =
  | 'invalid_item'
  /** The item's metadata breaks the metadata rules (API.md, "Metadata"). */
  | 'invalid_request'
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

/**
 * How a caller's bucket failed, as the adapter saw it (ports.ts,
 * BucketConnector): `denied` the bucket (or STS) answered and refused;
 * `unreachable` no usable answer (network, TLS, timeout, 5xx, throttling);
 * `forbidden_endpoint` the endpoint resolved to an address the SSRF guard
 * refuses. The core decides what each means for the caller (core/bucket/).
 */
export type BucketFailureKind = 'denied' | 'unreachable' | 'forbidden_endpoint';

/**
 * What the caller is told of an endpoint the address guard refused, whatever
 * the address: which private address a name resolves to is not the caller's
 * to learn (it would make the service a DNS oracle into its own network).
 */
export const FORBIDDEN_ENDPOINT_DETAIL =
  'the endpoint is not a public address, or its name resolves to one that is not';

export class BucketError extends Error {
  constructor(
    readonly kind: BucketFailureKind,
    /**
     * Safe to show the customer: the S3/STS error code and HTTP status, or
     * the network error's code. Never a credential, a signature or a header.
     */
    readonly detail: string,
    /** `assume_role` when the failure came from getting role credentials (STS), else `request`. */
    readonly during: 'assume_role' | 'request' = 'request',
  ) {
    super(`${kind}: ${detail}`);
    this.name = 'BucketError';
  }
}
