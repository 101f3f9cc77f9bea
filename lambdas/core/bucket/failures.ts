import {
  BackendUnavailableError,
  type BucketError,
  CaptureRejected,
  DomainError,
  FORBIDDEN_ENDPOINT_DETAIL,
} from '../errors.js';

/** The tenant's own bucket could not be reached: a backend outage whose message is the customer's to read (it names their bucket's error only). */
export class CallerBucketUnavailableError extends BackendUnavailableError {
  override readonly name = 'CallerBucketUnavailableError';
}

/**
 * What a failure of the caller's bucket means after registration (captures,
 * queued reads): refused → the capture is rejected for good
 * (`bucket_access_denied`); no answer → `backend_unavailable`, retry.
 */
export function captureFailure(error: BucketError, what: 'write' | 'read'): Error {
  if (error.kind === 'unreachable') {
    return new CallerBucketUnavailableError(
      `the registered bucket could not be reached for the ${what} (${error.detail})${what === 'write' ? '; nothing was stored' : ''}; retry`,
    );
  }
  const how = `(${shownDetail(error)})${error.during === 'assume_role' ? ' while assuming the role' : ''}`;
  if (what === 'read') {
    return new CaptureRejected(
      'bucket_access_denied',
      `the registered bucket refused reading the stored file ${how}; check the bucket's permissions (GET /v1/bucket shows its state)`,
    );
  }
  return new CaptureRejected(
    'bucket_access_denied',
    `the registered bucket refused the write ${how}; nothing was stored; check the bucket's permissions (GET /v1/bucket shows its state)`,
  );
}

/**
 * What a failure of the caller's bucket means to a download of a document's
 * file (GET /v1/documents/{id}/file): refused → `bucket_access_denied` (422,
 * the customer's bucket or role needs fixing); no answer → `unavailable`
 * (503, retry), its message naming the bucket's error.
 */
export function downloadFailure(error: BucketError): DomainError {
  if (error.kind === 'unreachable')
    return new DomainError(
      'unavailable',
      `the registered bucket could not be reached for the read (${error.detail}); retry`,
      1,
    );
  const how = `(${shownDetail(error)})${error.during === 'assume_role' ? ' while assuming the role' : ''}`;
  return new DomainError(
    'bucket_access_denied',
    `the registered bucket refused reading the file ${how}; check the bucket's permissions (GET /v1/bucket shows its state)`,
  );
}

/** The line GET /v1/bucket shows as last_error. */
export function healthLine(error: BucketError, what: 'write' | 'read' | 'delete'): string {
  const step = error.during === 'assume_role' ? 'assume role' : what;
  const how =
    error.kind === 'denied'
      ? 'refused'
      : error.kind === 'unreachable'
        ? 'unreachable'
        : 'endpoint refused by the address guard';
  return `${step}: ${how} (${shownDetail(error)})`;
}

/** The detail a customer reads: an address guard refusal never names the address, whatever the adapter put there. */
const shownDetail = (error: BucketError) =>
  error.kind === 'forbidden_endpoint' ? FORBIDDEN_ENDPOINT_DETAIL : error.detail;
