import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { safeParse } from 'zod/mini';
import type { $ZodError, $ZodObject, $ZodType } from 'zod/v4/core';
import { newId } from '../core/ids.js';
import { LIMITS } from '../core/limits.js';
import { errorBody, HttpError, toHttpError } from './errors.js';
import { BodyRefused, decodeUtf8, parseJsonObject } from './json-body.js';
import { logger, withRequestLog } from './observability.js';

export interface EndpointRequest<Q, B, P> {
  requestId: string;
  /** The caller's tenant, as the authorizer established it; '' on public routes. */
  tenantId: string;
  query: Q;
  body: B;
  path: P;
  /**
   * When the answer must be on its way (milliseconds since the epoch): the
   * request's budget less a margin for the answer's trip back (see
   * requestDeadline). Work that cannot finish by then is not waited for.
   */
  deadline: number;
  /** The proxy event as it came, for the rare endpoint that needs more than the parts above (the OpenAPI's own address). */
  event: APIGatewayProxyEvent;
}

export interface EndpointResult {
  status: number;
  /** The JSON body (ignored when `stream` or `content` is set). */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * A body that is not JSON, its Content-Type in `headers`: text is sent as
   * it is; bytes go base64-encoded with `isBase64Encoded` (API Gateway's
   * proxy model for binary; the local gateway decodes them onto the wire).
   */
  content?: string | Uint8Array;
  /**
   * A streamed answer (server-sent events, http/event-stream.ts): its
   * chunks in order, after the status and headers. The local gateway writes
   * them as they come; on AWS a streaming function writes them through
   * Lambda response streaming (wiring/aws/response-streaming.ts).
   */
  stream?: AsyncIterable<string>;
}

export interface EndpointSpec<Q, B, P> {
  /** Whether the route is behind the authorizer. */
  auth: boolean;
  /**
   * The route's query parameters, an object schema: the only parameters it
   * takes. Any other is 422 `invalid_request` naming it (`lmit: unknown
   * parameter`), checked here for every route; a route without one takes
   * none (docs/api-notes.md, "Parameters").
   */
  query?: $ZodObject & $ZodType<Q>;
  /** A schema, or 'object' to accept any JSON object and validate it in `run`. */
  body?: $ZodType<B> | 'object';
  path?: $ZodType<P>;
  run(request: EndpointRequest<Q, B, P>): Promise<EndpointResult>;
}

/** A proxy result, or a streamed one (its `body` empty, its chunks in `stream`). */
export interface ApiResult extends APIGatewayProxyResult {
  stream?: AsyncIterable<string>;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<ApiResult>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export const requestIdOf = (event: APIGatewayProxyEvent): string => event.requestContext?.requestId || newId('req');

/** API Gateway REST gives up on an integration after 29 s (and the API functions time out then too). */
export const GATEWAY_TIMEOUT_MS = 29_000;
/** Kept back from the budget for the answer's way back: serializing it and the gateway's own work. */
export const RESPONSE_MARGIN_MS = 1_000;

/**
 * The request's deadline: the earlier of the function's own end
 * (context.getRemainingTimeInMillis(); the local gateway gives the same
 * context) and the gateway's 29 s counted from when it received the request
 * (requestContext.requestTimeEpoch: a cold start's initialisation is not in
 * the function's remaining time, but it is in the gateway's), less
 * RESPONSE_MARGIN_MS. Without either, 29 s from now.
 */
export function requestDeadline(
  event: APIGatewayProxyEvent,
  context: Pick<Context, 'getRemainingTimeInMillis'> | undefined,
  now = Date.now(),
): number {
  const remaining =
    typeof context?.getRemainingTimeInMillis === 'function' ? context.getRemainingTimeInMillis() : undefined;
  let end = typeof remaining === 'number' && Number.isFinite(remaining) ? now + remaining : now + GATEWAY_TIMEOUT_MS;
  const received = event.requestContext?.requestTimeEpoch;
  if (typeof received === 'number' && received > 0) end = Math.min(end, received + GATEWAY_TIMEOUT_MS);
  return end - RESPONSE_MARGIN_MS;
}

export function jsonResponse(
  status: number,
  body: unknown,
  requestId: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  return {
    statusCode: status,
    headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers },
    body: JSON.stringify(body),
  };
}

/** A body that is not JSON: text as it is, bytes base64-encoded (isBase64Encoded). */
export function contentResponse(
  status: number,
  content: string | Uint8Array,
  requestId: string,
  headers: Record<string, string> = {},
): APIGatewayProxyResult {
  const binary = typeof content !== 'string';
  return {
    statusCode: status,
    headers: { 'x-request-id': requestId, ...headers },
    body: binary ? Buffer.from(content.buffer, content.byteOffset, content.byteLength).toString('base64') : content,
    isBase64Encoded: binary,
  };
}

export function errorResponse(error: HttpError, requestId: string): APIGatewayProxyResult {
  const headers: Record<string, string> = {};
  if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.retryAfterSeconds);
  return jsonResponse(error.status, errorBody(error, requestId), requestId, headers);
}

/** "field: problem" for the first problem zod found. */
export function describeIssue(error: $ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return `${prefix || 'request'}: invalid`;
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body';
  if (issue.code === 'unrecognized_keys')
    return `${[field === 'body' ? '' : field, issue.keys[0]].filter(Boolean).join('.')}: unknown field`;
  return `${field}: ${issue.message}`;
}

export function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? (headers[key] ?? undefined) : undefined;
}

/**
 * The body as JSON (rules: http/json-body.ts and docs/api-notes.md,
 * "Requests"). Raw bytes (isBase64Encoded: the local gateway sends bodies that
 * are not UTF-8 so) are decoded strictly; a body API Gateway already decoded
 * to a string is taken as it came (see api-notes: invalid UTF-8 on AWS).
 */
function parseBody(event: APIGatewayProxyEvent): Record<string, unknown> {
  const contentType = headerValue(event, 'content-type') ?? '';
  // A PATCH is a JSON merge patch (RFC 7396), whose own media type merge-patch clients send.
  const mergePatch = event.httpMethod === 'PATCH';
  const accepted = mergePatch ? /^application\/(?:merge-patch\+)?json\s*(;|$)/i : /^application\/json\s*(;|$)/i;
  if (!accepted.test(contentType.trim())) {
    throw new HttpError(
      'unsupported_media_type',
      mergePatch
        ? 'Content-Type must be application/json or application/merge-patch+json'
        : 'Content-Type must be application/json',
    );
  }
  const bytes = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64') : null;
  const size = bytes ? bytes.byteLength : Buffer.byteLength(event.body ?? '', 'utf8');
  if (size > LIMITS.requestBodyBytes) {
    throw new HttpError('payload_too_large', `request body over ${LIMITS.requestBodyBytes} bytes`);
  }
  try {
    return parseJsonObject(bytes ? decodeUtf8(bytes) : (event.body ?? ''));
  } catch (error) {
    if (error instanceof BodyRefused) throw new HttpError('invalid_json', error.message);
    throw error;
  }
}

/** How an unknown parameter's name is shown: as sent, cut when long. */
const shownName = (name: string) => (name === '' ? '""' : name.length > 64 ? `${name.slice(0, 64)}…` : name);

/**
 * Refuses the first query parameter (in the order sent) the route does not
 * take: a typo such as `lmit`, or `end_user_id` where the contract does not
 * put it (the body of a POST), is 422 rather than silently ignored; and a
 * parameter given more than once.
 */
export function refuseUnknownParameters(
  event: Pick<APIGatewayProxyEvent, 'queryStringParameters' | 'multiValueQueryStringParameters'>,
  known: ReadonlySet<string>,
): void {
  const names = new Set([
    ...Object.keys(event.queryStringParameters ?? {}),
    ...Object.keys(event.multiValueQueryStringParameters ?? {}),
  ]);
  for (const name of names) {
    if (!known.has(name)) throw new HttpError('invalid_request', `${shownName(name)}: unknown parameter`);
  }
  // A parameter given twice is ambiguous (`end_user_id=alice&end_user_id=bob` would read one library or the
  // other by the gateway's choice): refused, as a JSON body's repeated key is.
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if ((values?.length ?? 0) > 1) throw new HttpError('invalid_request', `${shownName(name)}: given more than once`);
  }
}

/** A number as a query parameter carries it: decimal digits, a sign and a fraction at most ("10", "0.5"; not "", "0x10" or "1e1"). */
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** The fields of an object schema that read a number from the query string's text (z.coerce.number, however wrapped). */
export function numberParameters(schema: $ZodObject | undefined): ReadonlySet<string> {
  const names = new Set<string>();
  for (const [name, field] of Object.entries(schema?._zod.def.shape ?? {})) {
    let def = (field as $ZodType)._zod.def as { type: string; coerce?: boolean; innerType?: $ZodType };
    while (def.innerType && (def.type === 'default' || def.type === 'optional'))
      def = def.innerType._zod.def as typeof def;
    if (def.type === 'number' && def.coerce) names.add(name);
  }
  return names;
}

/**
 * Refuses a number parameter that is not written as a decimal number: the
 * coercion would read "" as 0, "0x10" as 16 and "1e1" as 10, where a client
 * meant something else or nothing (docs/api-notes.md, "Parameters").
 */
export function refuseLooseNumbers(query: Record<string, string | undefined> | null, names: ReadonlySet<string>): void {
  for (const name of names) {
    const value = query?.[name];
    if (value !== undefined && !DECIMAL.test(value))
      throw new HttpError('invalid_request', `${name}: must be a number written in decimal digits`);
  }
}

/** The names of an object schema's fields. */
export const parameterNames = (schema: $ZodObject | undefined): ReadonlySet<string> =>
  new Set(schema ? Object.keys(schema._zod.def.shape) : []);

function validate<T>(schema: $ZodType<T>, value: unknown, prefix = ''): T {
  const result = safeParse(schema, value);
  if (!result.success) throw new HttpError('invalid_request', describeIssue(result.error, prefix));
  return result.data;
}

/**
 * Turns an endpoint spec into an API Gateway REST proxy handler: parses and
 * validates the request with the route's schemas, runs the use case, and maps
 * every failure to the contract's error body, in this one place.
 */
export function createEndpoint<Q = undefined, B = undefined, P = undefined>(spec: EndpointSpec<Q, B, P>): ApiHandler {
  const parameters = parameterNames(spec.query);
  const numbers = numberParameters(spec.query);
  const run = async (event: APIGatewayProxyEvent, context?: Context): Promise<ApiResult> => {
    const deadline = requestDeadline(event, context);
    const requestId = requestIdOf(event);
    const tenantId = String(event.requestContext?.authorizer?.tenantId ?? '');
    if (spec.auth && !tenantId) throw new HttpError('unauthorized', 'missing or invalid API key');
    // Before the parameters' values: a misspelt name is the likelier cause of a missing or odd value.
    refuseUnknownParameters(event, parameters);
    refuseLooseNumbers(event.queryStringParameters, numbers);
    const query = spec.query ? validate(spec.query, event.queryStringParameters ?? {}) : (undefined as Q);
    const path = spec.path ? validate(spec.path, event.pathParameters ?? {}) : (undefined as P);
    let body = undefined as B;
    if (spec.body) {
      const object = parseBody(event);
      body = spec.body === 'object' ? (object as B) : validate(spec.body, object);
    }
    const result = await spec.run({ requestId, tenantId, query, body, path, deadline, event });
    if (result.stream)
      return {
        statusCode: result.status,
        headers: { 'x-request-id': requestId, ...result.headers },
        body: '',
        stream: result.stream,
      };
    if (result.content !== undefined) return contentResponse(result.status, result.content, requestId, result.headers);
    return jsonResponse(result.status, result.body, requestId, result.headers);
  };

  // Each request logs in a context of its own (request id, route, tenant, end user hashed), never on a shared logger.
  return withRequestLog(
    middy(run).use({
      onError: async (request) => {
        const requestId = requestIdOf(request.event);
        const error = toHttpError(request.error);
        if (error.status >= 500) logger.error('request failed', { error: request.error as Error });
        request.response = errorResponse(error, requestId);
      },
    }) as unknown as ApiHandler,
  );
}
