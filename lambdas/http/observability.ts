import { AsyncLocalStorage } from 'node:async_hooks';
import { createHmac, randomBytes } from 'node:crypto';
import { Logger } from '@aws-lambda-powertools/logger';
import type { LogItemExtraInput, LogItemMessage } from '@aws-lambda-powertools/logger/types';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/**
 * Structured logs with a per-request context, the same on both stacks.
 *
 * The process has one Powertools Logger (`baseLogger`), and nothing that
 * belongs to a request is ever stored on it (no appendKeys, no addContext):
 * the local server runs many requests at once in one process, and a Lambda
 * environment may too, so keys stored on a shared logger race (a line of one
 * request carried another's `function_request_id`). Instead each request (or
 * worker invocation) runs in an AsyncLocalStorage context holding its keys,
 * and `logger` adds the current context's keys to every line it writes.
 *
 * What a line may carry: ids (request, tenant, document), the route
 * template (never the raw path, which holds ids the caller chose), the end
 * user as a keyed hash (hashEndUser), counts, statuses and durations. Never a body, a query
 * string, a header, an API key or document text.
 */

/** The process's one Powertools Logger (service name and level from POWERTOOLS_* variables). Tests set its level. */
export const baseLogger = new Logger({ serviceName: 'library' });

type LogMethod = (input: LogItemMessage, ...extraInput: LogItemExtraInput) => void;

/** One request's (or one worker invocation's) log context. */
export interface RequestLog {
  /** Keys every line of this request carries. */
  readonly keys: Record<string, unknown>;
  readonly startedAt: number;
  /** Who writes the access line: the local server (which also answers what no handler sees), or the function. */
  readonly owner: 'gateway' | 'function' | 'invocation';
  /** The end users addressed, hashed (a batch may address several). */
  readonly endUsers: Set<string>;
  /** Capture receipts by status, and rejections by code. */
  readonly captures: Record<string, number>;
  readonly rejections: Record<string, number>;
}

const contexts = new AsyncLocalStorage<RequestLog>();

/** The log context of the code running now, if it runs for a request or an invocation. */
export const currentRequestLog = (): RequestLog | undefined => contexts.getStore();

const forward = (level: 'debug' | 'info' | 'warn' | 'error' | 'critical'): LogMethod =>
  ((input: LogItemMessage, ...extra: LogItemExtraInput) => {
    const context = contexts.getStore();
    // The caller's own attributes come last, so they win over the context's keys.
    const args = (context ? [{ ...context.keys }, ...extra] : extra) as LogItemExtraInput;
    baseLogger[level](input, ...args);
  }) as LogMethod;

/** Logs with the current request's keys (request id, route, tenant, end user hash, function request id). */
export const logger = {
  debug: forward('debug'),
  info: forward('info'),
  warn: forward('warn'),
  error: forward('error'),
  critical: forward('critical'),
};

/**
 * The key end users are named in logs with: the deployment's, once the
 * wiring gives it (locally derived from the data folder's secrets key; on
 * AWS derived from a KMS HMAC key at the first request an environment
 * serves). Until then a random key of this process's own, so a line never
 * names an end user by anything a log reader could recompute: an unkeyed
 * hash of a guessable id (an e-mail address) is reversed by hashing guesses.
 */
let endUserLogKey: Buffer = randomBytes(32);

/** The smallest key taken: HMAC-SHA-256's own block of security. */
export const END_USER_LOG_KEY_BYTES = 32;

/** Makes `key` the one end users are named in logs with, from now on in this process. */
export function useEndUserLogKey(key: Uint8Array): void {
  if (key.byteLength < END_USER_LOG_KEY_BYTES)
    throw new Error(`the end-user log key must be at least ${END_USER_LOG_KEY_BYTES} bytes`);
  endUserLogKey = Buffer.from(key);
}

/**
 * An end user as logs name them: 16 hex digits of HMAC-SHA-256, keyed with
 * the deployment's secret, over tenant and end user id. Stable within a
 * deployment (lines of one end user can be followed), and neither reversible
 * nor recomputable from a guess without the key.
 */
export const hashEndUser = (tenantId: string, endUserId: string, key: Uint8Array = endUserLogKey): string =>
  createHmac('sha256', key).update(tenantId).update('\u0000').update(endUserId).digest('hex').slice(0, 16);

/** Runs `fn` in a fresh log context. */
export function runWithRequestLog<T>(owner: RequestLog['owner'], keys: Record<string, unknown>, fn: () => T): T {
  const log: RequestLog = {
    keys: { ...keys },
    startedAt: performance.now(),
    owner,
    endUsers: new Set(),
    captures: {},
    rejections: {},
  };
  return contexts.run(log, fn);
}

/** Adds keys to the current request's lines (undefined values are left out). */
export function noteRequest(keys: Record<string, unknown>): void {
  const log = contexts.getStore();
  if (!log) return;
  for (const [key, value] of Object.entries(keys))
    if (value !== undefined && value !== null && value !== '') log.keys[key] = value;
}

/** The library a request addresses: its end user joins the request's lines, hashed. */
export function noteEndUser(tenantId: string, endUserId: string | null | undefined): void {
  const log = contexts.getStore();
  if (!log || !endUserId) return;
  log.endUsers.add(hashEndUser(tenantId, endUserId));
  const hashes = [...log.endUsers];
  log.keys.endUser = hashes.length === 1 ? hashes[0] : 'several';
  if (hashes.length > 1) log.keys.endUsers = hashes;
}

/** A capture's outcome, counted on the request's access line. */
export function noteCapture(receipt: { status: string; reject_code: string | null }): void {
  const log = contexts.getStore();
  if (!log) return;
  log.captures[receipt.status] = (log.captures[receipt.status] ?? 0) + 1;
  if (receipt.reject_code) log.rejections[receipt.reject_code] = (log.rejections[receipt.reject_code] ?? 0) + 1;
}

let coldStart = true;

/** The Lambda context's fields, under Powertools' own names, on this request's lines only. */
export function noteLambdaContext(context: Context | undefined): void {
  if (!context?.awsRequestId) return;
  noteRequest({
    function_name: context.functionName,
    function_request_id: context.awsRequestId,
    function_arn: context.invokedFunctionArn,
    function_memory_size: context.memoryLimitInMB ? Number(context.memoryLimitInMB) : undefined,
    cold_start: coldStart,
  });
  coldStart = false;
}

/** The one line per request: who, what, how it ended and how long it took. */
export function writeAccessLine(log: RequestLog, status: number): void {
  const line: Record<string, unknown> = {
    ...log.keys,
    status,
    durationMs: Math.round((performance.now() - log.startedAt) * 10) / 10,
  };
  if (Object.keys(log.captures).length) line.captures = { ...log.captures };
  if (Object.keys(log.rejections).length) line.rejections = { ...log.rejections };
  const level = status >= 500 ? 'error' : 'info';
  baseLogger[level]('access', line);
}

const END_USER_ROUTE = '/v1/end-users/{id}';

function decodedPathId(event: APIGatewayProxyEvent): string | undefined {
  try {
    return event.pathParameters?.id ? decodeURIComponent(event.pathParameters.id) : undefined;
  } catch {
    return undefined;
  }
}

type ProxyResult = APIGatewayProxyResult & { stream?: AsyncIterable<string> };
type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<ProxyResult>;

/** A streamed body that calls `done` once it has been read to its end (or left). */
async function* untilEnd(stream: AsyncIterable<string>, done: () => void): AsyncGenerator<string> {
  try {
    yield* stream;
  } finally {
    done();
  }
}

/**
 * An API endpoint's handler run in its request's log context: the local
 * server's (it made one for the request and writes the access line), or one
 * of its own on Lambda, where it then writes the access line itself.
 */
export function withRequestLog(handler: ProxyHandler): ProxyHandler {
  return (event, context) => {
    const requestId = event.requestContext?.requestId || context?.awsRequestId;
    const keys = {
      route: event.resource ? `${event.httpMethod ?? ''} ${event.resource}`.trim() : undefined,
      tenantId: event.requestContext?.authorizer?.tenantId as string | undefined,
    };
    const note = () => {
      noteRequest(keys);
      noteLambdaContext(context);
      // The one route naming its end user in the path (the others go through libraryOf).
      if (event.resource === END_USER_ROUTE && keys.tenantId) noteEndUser(keys.tenantId, decodedPathId(event));
    };
    const outer = contexts.getStore();
    if (outer && outer.keys.requestId === requestId) {
      note();
      return handler(event, context);
    }
    return runWithRequestLog('function', { requestId }, async () => {
      note();
      const log = contexts.getStore()!;
      let status = 500;
      let streaming = false;
      try {
        const result = await handler(event, context);
        status = result.statusCode;
        if (!result.stream) return result;
        // A streamed answer's line is written when its stream ends, with the whole duration.
        streaming = true;
        return { ...result, stream: untilEnd(result.stream, () => writeAccessLine(log, status)) };
      } finally {
        if (!streaming) writeAccessLine(log, status);
      }
    });
  };
}

/** A worker's or the authorizer's invocation run in a log context of its own: its lines carry its Lambda request id. */
// biome-ignore lint/suspicious/noExplicitAny: any Lambda handler, whatever its event type
export function withInvocationLog<H extends (event: any, context: Context) => Promise<unknown>>(handler: H): H {
  return ((event: unknown, context: Context) =>
    runWithRequestLog('invocation', {}, () => {
      noteLambdaContext(context);
      return handler(event, context);
    })) as H;
}

/** What a capture answered, as listeners see it. */
export interface CaptureOutcome {
  status: string;
  reject_code: string | null;
}
