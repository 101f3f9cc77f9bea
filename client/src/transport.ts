import type { paths } from './api-types.js';
import {
  describeCause,
  LibraryAbortError,
  LibraryConnectionError,
  LibraryError,
  LibraryTimeoutError,
} from './errors.js';

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  reason: string;
  method: string;
  url: string;
}

export interface TransportOptions {
  baseUrl: string;
  apiKey: string;
  fetch?: typeof globalThis.fetch;
  /** Per attempt, in milliseconds. Default 60 000 (API Gateway answers within 29 s). */
  timeoutMs?: number;
  /** Extra attempts after a 429, a 503 or (for safe requests) a connection failure. Default 4. */
  retries?: number;
  /** First backoff step in milliseconds; doubles each retry, full jitter. Default 500. */
  retryBaseMs?: number;
  /** Longest single wait, `Retry-After` included. Default 60 000. */
  maxRetryDelayMs?: number;
  /** Called before each wait, e.g. to show "rate limited, waiting 2 s". */
  onRetry?: (info: RetryInfo) => void;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
}

/** Per call: cancellation and overrides. */
export interface RequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  retries?: number;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type ApiPath = keyof paths;

export interface RawResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
  requestId: string | null;
  url: string;
  method: string;
}

export interface RequestSpec {
  method: Method;
  /** The `Accept` header (default `application/json`). */
  mediaType?: string;
  /** A path of the OpenAPI description; `{id}` filled from `pathParams`. */
  path: ApiPath;
  pathParams?: Record<string, string>;
  query?: Record<string, string | number | boolean | undefined | null>;
  body?: unknown;
  /** Retry connection failures too (the request is idempotent). */
  idempotent: boolean;
  /** Statuses returned as values rather than thrown (e.g. a rejected capture's 422). */
  accept?: (status: number, body: unknown) => boolean;
  /** Whether a 503 answer should be retried (default: yes). */
  retry503?: boolean;
  /** A successful answer is bytes (`body` a Uint8Array), not JSON; an error is still read as the error body. */
  binary?: boolean;
}

/**
 * Normalizes a base URL: accepts the service root or the deployed API URL
 * (`https://x.execute-api.eu-west-1.amazonaws.com/prod/v1/`), with or without
 * `/v1` and a trailing slash. Paths are appended as `/v1/...`.
 */
export function normalizeBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not an absolute URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl must be http or https: ${baseUrl}`);
  let path = withoutTrailingSlashes(url.pathname);
  if (path.endsWith('/v1')) path = path.slice(0, -3);
  return `${url.origin}${path}`;
}

/**
 * The text without the slashes it ends with. A loop rather than /\/+$/, which retries a long run
 * of slashes from each of its positions (quadratic), and rather than a lookbehind, which older
 * browsers cannot parse.
 */
function withoutTrailingSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 0x2f) end -= 1;
  return text.slice(0, end);
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `Retry-After` as seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, bodyValue?: unknown): number | null {
  if (value) {
    const seconds = Number(value);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, (date - Date.now()) / 1000);
  }
  return typeof bodyValue === 'number' && bodyValue >= 0 ? bodyValue : null;
}

export class Transport {
  readonly baseUrl: string;
  private readonly options: Required<Omit<TransportOptions, 'onRetry' | 'headers' | 'fetch'>> &
    Pick<TransportOptions, 'onRetry' | 'headers'>;
  private readonly fetchImpl: typeof globalThis.fetch;

  constructor(options: TransportOptions) {
    if (!options.apiKey) throw new TypeError('apiKey is required');
    this.baseUrl = normalizeBaseUrl(options.baseUrl);
    const fetchImpl = options.fetch ?? globalThis.fetch;
    if (typeof fetchImpl !== 'function') throw new TypeError('no fetch: pass options.fetch');
    this.fetchImpl = (input, init) => fetchImpl(input, init); // unbound window.fetch throws "Illegal invocation"
    this.options = {
      baseUrl: this.baseUrl,
      apiKey: options.apiKey,
      timeoutMs: options.timeoutMs ?? 60_000,
      retries: options.retries ?? 4,
      retryBaseMs: options.retryBaseMs ?? 500,
      maxRetryDelayMs: options.maxRetryDelayMs ?? 60_000,
      onRetry: options.onRetry,
      headers: options.headers,
    };
  }

  url(spec: Pick<RequestSpec, 'path' | 'pathParams' | 'query'>): string {
    const path = (spec.path as string).replace(/\{(\w+)\}/g, (_, name: string) => {
      const value = spec.pathParams?.[name];
      if (value === undefined || value === '') throw new TypeError(`${name} is required`);
      return encodeURIComponent(value);
    });
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return `${this.baseUrl}${path}${search ? `?${search}` : ''}`;
  }

  private backoff(attempt: number, retryAfter: number | null): number {
    const cap = this.options.maxRetryDelayMs;
    if (retryAfter !== null) {
      // The service's number is the minimum; a little jitter spreads the herd.
      return Math.min(cap, retryAfter * 1000 + Math.random() * Math.min(1000, this.options.retryBaseMs));
    }
    return Math.random() * Math.min(cap, this.options.retryBaseMs * 2 ** attempt);
  }

  async request<T>(spec: RequestSpec, call: RequestOptions = {}): Promise<RawResponse<T>> {
    const answer = await this.exchange(spec, call, false);
    return answer as RawResponse<T>;
  }

  /**
   * Sends a request whose successful answer may be a stream (server-sent
   * events): failures, retries and errors as `request`; a successful answer
   * of type `text/event-stream` comes back unread, with what reading it
   * needs (the caller's signal and `timeoutMs`, now between two chunks, stay
   * wired until `release`). Any other successful answer is read as `request`
   * reads it.
   */
  async openStream(spec: RequestSpec, call: RequestOptions = {}): Promise<OpenedStream | RawResponse<unknown>> {
    return this.exchange(spec, call, true);
  }

  private async exchange(
    spec: RequestSpec,
    call: RequestOptions,
    streaming: boolean,
  ): Promise<RawResponse<unknown> | OpenedStream> {
    const url = this.url(spec);
    const retries = call.retries ?? this.options.retries;
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    const where = { method: spec.method, url };
    const headers: Record<string, string> = {
      accept: spec.mediaType ?? 'application/json',
      ...this.options.headers,
      authorization: `Bearer ${this.options.apiKey}`,
    };
    let payload: string | undefined;
    if (spec.body !== undefined) {
      payload = JSON.stringify(spec.body);
      headers['content-type'] = 'application/json';
    }

    for (let attempt = 0; ; attempt++) {
      if (call.signal?.aborted) throw abortError(call.signal, where);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, timeoutMs);
      const onAbort = () => controller.abort();
      call.signal?.addEventListener('abort', onAbort, { once: true });

      let retryReason: string | null = null;
      let retryAfter: number | null = null;
      let failure: LibraryError;
      let handedOver = false;
      try {
        const response = await this.fetchImpl(url, {
          method: spec.method,
          headers,
          body: payload,
          signal: controller.signal,
        });
        if (
          streaming &&
          response.ok &&
          response.body &&
          (response.headers.get('content-type') ?? '').toLowerCase().startsWith('text/event-stream')
        ) {
          // The stream is the caller's to read: the signal stays wired to it until it is released.
          handedOver = true;
          clearTimeout(timer);
          return {
            stream: response.body,
            status: response.status,
            headers: response.headers,
            requestId: response.headers.get('x-request-id') ?? response.headers.get('x-amzn-requestid'),
            url,
            method: spec.method,
            timeoutMs,
            abort: () => controller.abort(),
            aborted: () => call.signal?.aborted === true,
            release: () => call.signal?.removeEventListener('abort', onAbort),
          } satisfies OpenedStream;
        }
        if (spec.binary && response.ok) {
          // Read whole here, within the attempt's timeout (a file is at most a few MiB).
          const bytes = new Uint8Array(await response.arrayBuffer());
          return {
            status: response.status,
            body: bytes,
            headers: response.headers,
            requestId: response.headers.get('x-request-id') ?? response.headers.get('x-amzn-requestid'),
            url,
            method: spec.method,
          };
        }
        const text = await response.text();
        const requestId = response.headers.get('x-request-id') ?? response.headers.get('x-amzn-requestid');
        let body: unknown = text;
        if (text) {
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON (a proxy's HTML page): kept as text for the error
          }
        } else body = null;
        const errorBody = (
          body && typeof body === 'object' && 'error' in body ? (body as { error: unknown }).error : null
        ) as { code?: unknown; message?: unknown; request_id?: unknown; retry_after?: unknown } | null;
        const id = requestId ?? (typeof errorBody?.request_id === 'string' ? errorBody.request_id : null);
        if (response.ok || spec.accept?.(response.status, body)) {
          const retryable = response.status === 503 && spec.retry503 !== false;
          if (!retryable || attempt >= retries)
            return {
              status: response.status,
              body,
              headers: response.headers,
              requestId: id,
              url,
              method: spec.method,
            };
        }
        retryAfter = parseRetryAfter(response.headers.get('retry-after'), errorBody?.retry_after);
        const code = typeof errorBody?.code === 'string' ? errorBody.code : `http_${response.status}`;
        const message =
          typeof errorBody?.message === 'string'
            ? errorBody.message
            : `${response.status} ${response.statusText || 'error'} from ${spec.method} ${url}`;
        failure = new LibraryError({
          message,
          status: response.status,
          code,
          requestId: id,
          retryAfter,
          body,
          request: where,
        });
        if (response.status === 429 || (response.status === 503 && spec.retry503 !== false))
          retryReason = `${response.status} ${code}`;
      } catch (error) {
        if (call.signal?.aborted) throw abortError(call.signal, where);
        if (timedOut) {
          failure = new LibraryTimeoutError({
            message: `no answer from ${spec.method} ${url} within ${timeoutMs} ms`,
            status: 0,
            code: 'timeout',
            request: where,
            cause: error,
          });
          if (spec.idempotent) retryReason = 'timeout';
        } else {
          failure = new LibraryConnectionError({
            message: `cannot reach ${url}: ${describeCause(error)}`,
            status: 0,
            code: 'connection_failed',
            request: where,
            cause: error,
          });
          if (spec.idempotent) retryReason = 'connection failed';
        }
      } finally {
        clearTimeout(timer);
        if (!handedOver) call.signal?.removeEventListener('abort', onAbort);
      }
      if (!retryReason || attempt >= retries) throw failure;
      const delayMs = this.backoff(attempt, retryAfter);
      this.options.onRetry?.({ attempt: attempt + 1, delayMs, reason: retryReason, method: spec.method, url });
      try {
        await sleep(delayMs, call.signal);
      } catch {
        throw abortError(call.signal!, where);
      }
    }
  }
}

/** A successful answer whose body is a stream (server-sent events), not read yet. */
export interface OpenedStream {
  stream: ReadableStream<Uint8Array>;
  status: number;
  headers: Headers;
  requestId: string | null;
  url: string;
  method: string;
  /** The longest wait for the next chunk, in milliseconds (the call's `timeoutMs`). */
  timeoutMs: number;
  /** Cancels the request (reading then fails). */
  abort(): void;
  /** Whether the caller's own signal fired. */
  aborted(): boolean;
  /** Unwires the caller's signal: call once done reading. */
  release(): void;
}

export function abortError(signal: AbortSignal, request: { method: string; url: string }): LibraryAbortError {
  return new LibraryAbortError({
    message: `${request.method} ${request.url} was cancelled`,
    status: 0,
    code: 'aborted',
    request,
    cause: signal.reason,
  });
}
