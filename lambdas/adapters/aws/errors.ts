import { BackendUnavailableError } from '../../core/errors.js';

/** Names AWS services use for throttling: the caller should slow down, not just try again. */
const THROTTLING_NAMES = new Set([
  'ThrottlingException',
  'Throttling',
  'TooManyRequestsException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'RequestThrottled',
  'RequestThrottledException',
  'SlowDown',
]);

/** Error names AWS services use for throttling and for their own transient faults. */
const TRANSIENT_NAMES = new Set([
  ...THROTTLING_NAMES,
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'InternalServerError',
  'InternalServerException',
  'InternalError',
  'ModelNotReadyException',
  'ModelTimeoutException',
  'TransactionConflictException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

interface SdkLikeError {
  name?: string;
  code?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
  $response?: { headers?: Record<string, string | undefined> };
}

/** Seconds to wait before trying a throttled service again when it does not say (a throttle outlasted the SDK's own retries). */
const THROTTLED_RETRY_AFTER_SECONDS = 2;

/**
 * How long to wait before retrying: the service's Retry-After header when it
 * sends one (whole seconds), else longer for a throttle than for a fault.
 */
export function retryAfterSeconds(error: unknown): number {
  const e = (typeof error === 'object' && error !== null ? error : {}) as SdkLikeError;
  const header = e.$response?.headers?.['retry-after'] ?? e.$response?.headers?.['Retry-After'];
  const seconds = header === undefined ? NaN : Number(header);
  if (Number.isFinite(seconds) && seconds > 0) return Math.min(60, Math.ceil(seconds));
  const throttled =
    (e.name && THROTTLING_NAMES.has(e.name)) ||
    (e.code && THROTTLING_NAMES.has(e.code)) ||
    e.$metadata?.httpStatusCode === 429;
  return throttled ? THROTTLED_RETRY_AFTER_SECONDS : 1;
}

/** Whether an AWS SDK (or network) error is a throttle or a transient fault: safe to retry later. */
export function isTransientAwsError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as SdkLikeError;
  if (e.$retryable) return true;
  if ((e.name && TRANSIENT_NAMES.has(e.name)) || (e.code && TRANSIENT_NAMES.has(e.code))) return true;
  const status = e.$metadata?.httpStatusCode;
  return status === 429 || (status !== undefined && status >= 500);
}

/**
 * Runs one call to an AWS service: a throttle, a transient fault or a network
 * failure becomes BackendUnavailableError (retryable `backend_unavailable`,
 * with how long to wait: retryAfterSeconds);
 * anything else is a bug or a misconfiguration and is rethrown as it is.
 */
export async function callAws<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof BackendUnavailableError) throw error;
    if (isTransientAwsError(error)) {
      throw new BackendUnavailableError(
        `${what}: ${(error as Error).name ?? 'unavailable'}`,
        retryAfterSeconds(error),
        { cause: error },
      );
    }
    throw error;
  }
}

/**
 * Runs one DynamoDB conditional write through callAws: true when it was
 * written, false when its condition did not hold (ConditionalCheckFailedException);
 * any other failure is callAws's.
 */
export async function ifCondition(what: string, call: () => Promise<unknown>): Promise<boolean> {
  try {
    await callAws(what, call);
    return true;
  } catch (error) {
    if ((error as { name?: string } | null)?.name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
