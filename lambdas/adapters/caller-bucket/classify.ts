import { BucketError, FORBIDDEN_ENDPOINT_DETAIL } from '../../core/errors.js';

interface SdkLikeError {
  name?: string;
  code?: string;
  Code?: string;
  cause?: unknown;
  $metadata?: { httpStatusCode?: number };
}

/** Errors that mean the store is busy, not refusing: retry later. */
const THROTTLING = new Set([
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
  'RequestLimitExceeded',
  'ServiceUnavailable',
  'InternalError',
  'RequestTimeout',
]);

function forbiddenEndpoint(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as SdkLikeError;
  if (e.code === 'ERR_FORBIDDEN_ENDPOINT') return true;
  return forbiddenEndpoint(e.cause, depth + 1);
}

/**
 * A failure of a call to a caller's bucket as the core reads it
 * (ports.ts, BucketConnector): the store answered and refused (4xx but
 * throttling) is `denied`; no usable answer (network errors, timeouts, 5xx,
 * throttling) is `unreachable`; the SSRF guard's refusal is
 * `forbidden_endpoint`. The detail is the error's code and HTTP status, or
 * the network error's code: never its message, which may echo a header. A
 * guard refusal's detail is the same generic sentence whatever the address:
 * naming it would tell the caller what a host name resolves to inside the
 * service's network (the guard tells the operator's log instead).
 */
export function classifyBucketError(error: unknown, during: 'assume_role' | 'request' = 'request'): BucketError {
  if (error instanceof BucketError) return error;
  if (forbiddenEndpoint(error)) return new BucketError('forbidden_endpoint', FORBIDDEN_ENDPOINT_DETAIL, during);
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkLikeError;
  const status = e.$metadata?.httpStatusCode;
  const name = e.Code ?? e.name ?? 'Error';
  if (status === undefined) {
    const code =
      e.code ?? (typeof e.cause === 'object' && e.cause !== null ? (e.cause as SdkLikeError).code : undefined);
    return new BucketError('unreachable', code ?? (name === 'Error' ? 'no answer' : name), during);
  }
  const detail = `${name} (HTTP ${status})`;
  if (status >= 500 || status === 429 || THROTTLING.has(name)) return new BucketError('unreachable', detail, during);
  return new BucketError('denied', detail, during);
}
