import { BackendUnavailableError, DomainError } from '../core/errors.js';

/** The contract's error codes and their HTTP statuses (API.md, "Errors"). */
export const ERROR_STATUS = {
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
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class HttpError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'HttpError';
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/** Maps anything thrown behind an endpoint to the contract's error; unknown errors become internal_error. */
export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(error.code, error.message, error.retryAfterSeconds);
  if (error instanceof BackendUnavailableError) {
    return new HttpError(
      'unavailable',
      error.publicMessage ?? 'a backend is unavailable; safe to retry',
      error.retryAfterSeconds,
    );
  }
  // The function's time ran out (middy ends the request just before Lambda would): a backend was too slow, not a bug.
  if (error instanceof Error && error.name === 'TimeoutError')
    return new HttpError('unavailable', 'a backend timed out; safe to retry', 1);
  return new HttpError('internal_error', 'internal error; nothing half-written was kept');
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id: string; retry_after?: number };
}

export function errorBody(error: HttpError, requestId: string): ErrorBody {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.retryAfterSeconds !== undefined ? { retry_after: error.retryAfterSeconds } : {}),
    },
  };
}
