import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { safeParse } from 'zod/mini';
import type { $ZodError, $ZodType } from 'zod/v4/core';
import { LIMITS } from '../core/limits.js';
import { newId } from '../core/ids.js';
import { HttpError, errorBody, toHttpError } from './errors.js';
import { logger } from './observability.js';

export interface EndpointRequest<Q, B, P> {
  requestId: string;
  /** The caller's tenant, as the authorizer established it; '' on public routes. */
  tenantId: string;
  query: Q;
  body: B;
  path: P;
}

export interface EndpointResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface EndpointSpec<Q, B, P> {
  /** Whether the route is behind the authorizer. */
  auth: boolean;
  query?: $ZodType<Q>;
  /** A schema, or 'object' to accept any JSON object and validate it in `run`. */
  body?: $ZodType<B> | 'object';
  path?: $ZodType<P>;
  run(request: EndpointRequest<Q, B, P>): Promise<EndpointResult>;
}

export type ApiHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

export const requestIdOf = (event: APIGatewayProxyEvent): string => event.requestContext?.requestId || newId('req');

export function jsonResponse(status: number, body: unknown, requestId: string, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode: status, headers: { ...JSON_HEADERS, 'x-request-id': requestId, ...headers }, body: JSON.stringify(body) };
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
  if (issue.code === 'unrecognized_keys') return `${[field === 'body' ? '' : field, issue.keys[0]].filter(Boolean).join('.')}: unknown field`;
  return `${field}: ${issue.message}`;
}

function headerValue(event: APIGatewayProxyEvent, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key ? headers[key] ?? undefined : undefined;
}

function parseBody(event: APIGatewayProxyEvent): Record<string, unknown> {
  const contentType = headerValue(event, 'content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(contentType.trim())) {
    throw new HttpError('unsupported_media_type', 'Content-Type must be application/json');
  }
  const raw = event.isBase64Encoded ? Buffer.from(event.body ?? '', 'base64').toString('utf8') : event.body ?? '';
  if (Buffer.byteLength(raw, 'utf8') > LIMITS.requestBodyBytes) {
    throw new HttpError('payload_too_large', `request body over ${LIMITS.requestBodyBytes} bytes`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpError('invalid_json', 'body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new HttpError('invalid_json', 'body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

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
  const run = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => {
    const requestId = requestIdOf(event);
    const tenantId = String(event.requestContext?.authorizer?.tenantId ?? '');
    if (spec.auth && !tenantId) throw new HttpError('unauthorized', 'missing or invalid API key');
    const query = spec.query ? validate(spec.query, event.queryStringParameters ?? {}) : (undefined as Q);
    const path = spec.path ? validate(spec.path, event.pathParameters ?? {}) : (undefined as P);
    let body = undefined as B;
    if (spec.body) {
      const object = parseBody(event);
      body = spec.body === 'object' ? (object as B) : validate(spec.body, object);
    }
    const result = await spec.run({ requestId, tenantId, query, body, path });
    return jsonResponse(result.status, result.body, requestId, result.headers);
  };

  return middy(run)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({
      onError: async (request) => {
        const requestId = requestIdOf(request.event);
        const error = toHttpError(request.error);
        if (error.status >= 500) logger.error('request failed', { requestId, error: request.error as Error });
        request.response = errorResponse(error, requestId);
      },
    }) as unknown as ApiHandler;
}
