import { isUtf8 } from 'node:buffer';
import { createServer, type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayTokenAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { newId } from '../core/ids.js';
import { LIMITS } from '../core/limits.js';
import { ALL_ROUTES, type PageName, type RouteName } from '../endpoints/routes.js';
import { bearerKey } from '../http/bearer.js';
import { CorsPolicy, withCorsHeaders } from '../http/cors.js';
import type { ApiHandler, ApiResult } from '../http/endpoint.js';
import { errorResponse } from '../http/endpoint.js';
import { HttpError } from '../http/errors.js';
import { currentRequestLog, noteRequest, runWithRequestLog, writeAccessLine } from '../http/observability.js';
import type { RouteDefinition } from '../http/route.js';
import { undecodableQueryParameter } from './query-string.js';
import { type RateLimit, RateLimiter } from './rate-limiter.js';

/**
 * The local server: plays API Gateway in front of the very handlers Lambda
 * runs. It matches the route table, runs the TOKEN authorizer, throttles per
 * key, turns the HTTP request into a REST proxy event and the handler's
 * result back into HTTP. It answers CORS as the AWS stack does: preflights
 * for the allowed origins, and the CORS headers on every answer to them.
 */
export interface LocalServerOptions {
  /** The API's handlers, and the pages' (a page without one is not served). */
  handlers: Record<RouteName, ApiHandler> & Partial<Record<PageName, ApiHandler>>;
  authorizer: (event: APIGatewayTokenAuthorizerEvent) => Promise<APIGatewayAuthorizerResult>;
  rateLimit: RateLimit;
  /** Exact origins browser apps may call from (LIBRARY_CORS_ORIGINS); none by default. */
  corsOrigins?: readonly string[];
  host?: string;
  port?: number;
}

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  params: string[];
}

function compile(route: RouteDefinition): CompiledRoute {
  const params: string[] = [];
  const source = route.path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, (_, name: string) => {
    params.push(name);
    return '([^/]+)';
  });
  return { route, pattern: new RegExp(`^${source}$`), params };
}

const COMPILED = ALL_ROUTES.map(compile);

/** Reads at most the contract's body limit; null when the body is larger. */
async function readBody(request: IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > LIMITS.requestBodyBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A proxy result on the wire; a base64 body (isBase64Encoded: bytes, as API Gateway takes binary from a function) goes as its bytes. */
function send(response: ServerResponse, result: APIGatewayProxyResult, extraHeaders: Record<string, string> = {}) {
  const bytes = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : null;
  const length: Record<string, string> = bytes ? { 'content-length': String(bytes.byteLength) } : {};
  response.writeHead(
    result.statusCode,
    withCorsHeaders({ ...(result.headers as Record<string, string>), ...length }, extraHeaders),
  );
  response.end(bytes ?? result.body);
}

/** Resolves when the response can take more (drain), or will take nothing more (closed). */
const writable = (response: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });

/**
 * A handler's answer on the wire: a proxy result at once, or a streamed one
 * (server-sent events) chunk by chunk as its stream yields them, headers
 * first. A reader that goes away stops the writing, not the stream: it is
 * read to its end, so the work behind it completes (as on AWS).
 */
async function answer(
  response: ServerResponse,
  result: ApiResult,
  extraHeaders: Record<string, string>,
): Promise<void> {
  if (!result.stream) return send(response, result, extraHeaders);
  response.writeHead(result.statusCode, withCorsHeaders(result.headers as Record<string, string>, extraHeaders));
  response.flushHeaders();
  for await (const chunk of result.stream) {
    if (response.destroyed || response.writableEnded) continue;
    if (!response.write(chunk)) await writable(response);
  }
  if (!response.destroyed) response.end();
}

function lambdaContext(functionName: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: `/local/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The request line and headers the local server reads: room for a filter of 16,384 characters URL-encoded
 * (up to three bytes each) in a query string; API Gateway's own limit is lower (docs/api-notes.md).
 */
const REQUEST_HEAD_BYTES = 64 * 1024;

/**
 * What the server answers to a request it could not parse. Request line and
 * headers past REQUEST_HEAD_BYTES get no route: they are answered as every
 * error is (the contract's body, x-request-id), not with Node's bare 431.
 * Other malformed HTTP gets what Node answers by itself, which it no longer
 * does once a handler is set; and, as Node's own handler, never into a
 * response already under way (a pipelined request behind it).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const underWay = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true;
  if (!socket.writable || underWay || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  const nodeStatus = { ERR_HTTP_REQUEST_TIMEOUT: 408, HPE_CHUNK_EXTENSIONS_OVERFLOW: 413 }[error.code ?? ''] ?? 400;
  const result =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errorResponse(
          new HttpError(
            'invalid_request',
            `request line and headers over ${REQUEST_HEAD_BYTES} bytes (a filter belongs in chat's body)`,
          ),
          newId('req'),
        )
      : { statusCode: nodeStatus, headers: {}, body: '' };
  const headers = Object.entries({
    ...result.headers,
    'content-length': String(Buffer.byteLength(result.body)),
    connection: 'close',
  })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.end(`HTTP/1.1 ${result.statusCode} ${STATUS_CODES[result.statusCode]}\r\n${headers}\r\n${result.body}`);
}

export async function startLocalServer(options: LocalServerOptions) {
  const limiter = new RateLimiter(options.rateLimit);
  const cors = new CorsPolicy(options.corsOrigins ?? []);
  const served = COMPILED.filter((c) => options.handlers[c.route.name as RouteName | PageName]);

  const handle = async (
    request: IncomingMessage,
    response: ServerResponse,
    requestId: string,
    corsHeaders: Record<string, string>,
  ) => {
    const fail = (error: HttpError, extraHeaders: Record<string, string> = {}) => {
      const result = errorResponse(error, requestId);
      send(response, { ...result, headers: { ...result.headers, ...extraHeaders } }, corsHeaders);
    };
    /** Answered before the body was read: the connection closes after the answer, its unread body with it. */
    const failUnread = (error: HttpError, extraHeaders: Record<string, string> = {}) => {
      if (request.headers['content-length'] !== undefined || request.headers['transfer-encoding'] !== undefined)
        response.setHeader('connection', 'close');
      fail(error, extraHeaders);
    };
    const url = new URL(request.url ?? '/', 'http://localhost');
    // The path as sent: URL resolves "." and ".." segments (%2E too), which would send DELETE
    // /v1/end-users/%2E to no route instead of erasing an end user named "." stored before such ids were refused.
    const pathname = request.url?.startsWith('/') ? request.url.split(/[?#]/, 1)[0]! : url.pathname;
    const method = (request.method ?? 'GET').toUpperCase();

    const onPath = served.map((c) => ({ c, match: c.pattern.exec(pathname) })).filter((m) => m.match);
    if (!onPath.length) return fail(new HttpError('not_found', `no route ${pathname}`));
    const hit = onPath.find((m) => m.c.route.method === method);
    if (!hit && method === 'OPTIONS' && cors.enabled) {
      // A preflight (as API Gateway's OPTIONS mock answers it): 204; the allow headers only for an allowed origin.
      const methods = onPath.map((m) => m.c.route.method);
      response.writeHead(204, {
        'x-request-id': requestId,
        allow: [...methods, 'OPTIONS'].join(', '),
        ...cors.preflightHeaders(request.headers.origin, methods),
      });
      return response.end();
    }
    if (!hit) {
      const allowed = onPath.map((m) => m.c.route.method).join(', ');
      return fail(new HttpError('method_not_allowed', `${method} is not allowed on ${pathname}; use ${allowed}`), {
        allow: allowed,
      });
    }
    const { route, params } = hit.c;
    noteRequest({ route: `${route.method} ${route.path}` });

    // Who asks comes before the body: a caller without a valid key, or over its rate, is answered without its body
    // being read (buffered first, up to 6 MB a request, 300 keyless connections held 1.6 GB: an outside probe).
    let authorizerContext: Record<string, unknown> | undefined;
    if (route.auth) {
      const token = request.headers.authorization;
      if (!token) return failUnread(new HttpError('unauthorized', 'missing Authorization: Bearer <API_KEY>'));
      try {
        const decision = await options.authorizer({
          type: 'TOKEN',
          authorizationToken: token,
          methodArn: `arn:aws:execute-api:local:000000000000:library/v1/${method}${route.path}`,
        });
        authorizerContext = { ...decision.context, principalId: decision.principalId };
        noteRequest({ tenantId: decision.context?.tenantId });
      } catch {
        return failUnread(new HttpError('unauthorized', 'unknown, malformed or revoked API key'));
      }
      // One bucket a key, however the scheme is spelt, as API Gateway's usage plan keeps (the authorizer accepted it).
      const wait = limiter.take(bearerKey(token) ?? token);
      if (wait > 0)
        return failUnread(
          new HttpError(
            'rate_limited',
            `over the rate of ${options.rateLimit.ratePerSecond} requests/s for this key`,
            wait,
          ),
        );
    }

    if (Number(request.headers['content-length'] ?? 0) > LIMITS.requestBodyBytes)
      return failUnread(new HttpError('payload_too_large', `request body over ${LIMITS.requestBodyBytes} bytes`));
    const body = await readBody(request);
    if (body === null) {
      response.setHeader('connection', 'close');
      return fail(new HttpError('payload_too_large', `request body over ${LIMITS.requestBodyBytes} bytes`));
    }

    const undecodable = undecodableQueryParameter(request.url ?? '/');
    if (undecodable !== null)
      return fail(new HttpError('invalid_request', `${undecodable}: must be URL-encoded UTF-8`));

    const headers: Record<string, string> = {};
    const multiValueHeaders: Record<string, string[]> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (value === undefined) continue;
      const values = Array.isArray(value) ? value : [value];
      headers[name] = values[values.length - 1]!;
      multiValueHeaders[name] = values;
    }
    const query: Record<string, string> = {};
    const multiQuery: Record<string, string[]> = {};
    for (const [name, value] of url.searchParams) {
      query[name] = value;
      (multiQuery[name] ??= []).push(value);
    }
    const match = hit.match!;
    const pathParameters = Object.fromEntries(params.map((name, i) => [name, match[i + 1]!]));
    const event = {
      resource: route.path,
      path: pathname,
      httpMethod: method,
      headers,
      multiValueHeaders,
      queryStringParameters: Object.keys(query).length ? query : null,
      multiValueQueryStringParameters: Object.keys(multiQuery).length ? multiQuery : null,
      pathParameters: params.length ? pathParameters : null,
      stageVariables: null,
      requestContext: {
        requestId,
        authorizer: authorizerContext ?? null,
        resourcePath: route.path,
        httpMethod: method,
        path: pathname,
        stage: 'local',
        identity: { sourceIp: request.socket.remoteAddress ?? '127.0.0.1' },
      },
      // Bytes that are not UTF-8 go as base64 (as API Gateway sends binary), so the endpoint sees them and refuses them.
      body: body.length ? (isUtf8(body) ? body.toString('utf8') : body.toString('base64')) : null,
      isBase64Encoded: body.length > 0 && !isUtf8(body),
    } as unknown as APIGatewayProxyEvent;

    try {
      await answer(
        response,
        await options.handlers[route.name as RouteName | PageName]!(event, lambdaContext(route.name, requestId)),
        corsHeaders,
      );
    } catch {
      if (!response.headersSent) fail(new HttpError('internal_error', 'internal error'));
      else response.destroy();
    }
  };

  const server = createServer({ maxHeaderSize: REQUEST_HEAD_BYTES }, (request, response) => {
    const requestId = newId('req');
    // Every request runs in a log context of its own and leaves one access line, whatever answered it
    // (the router, the authorizer, the rate limiter or a handler): method, route template, status, duration,
    // tenant, end user hashed; never the raw path, the query, a header or the body.
    // Every answer (a handler's, or the gateway's own error) carries the CORS headers for the request's origin.
    const corsHeaders = cors.responseHeaders(request.headers.origin);
    runWithRequestLog('gateway', { requestId, method: (request.method ?? 'GET').toUpperCase() }, () => {
      const log = currentRequestLog()!;
      response.once('close', () => writeAccessLine(log, response.writableFinished ? response.statusCode : 499));
      handle(request, response, requestId, corsHeaders).catch(() => {
        if (!response.headersSent)
          send(response, errorResponse(new HttpError('internal_error', 'internal error'), requestId), corsHeaders);
      });
    });
  });
  server.on('clientError', answerClientError);
  // Longer than clients' own idle timeouts, so a client never reuses a socket the server just closed.
  server.keepAliveTimeout = 65_000;
  // A request (headers and body) not received within a minute is answered 408 and its connection closed: API
  // Gateway gives up on a request after 29 s; Node's default of five minutes let slow bodies hold memory for long.
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 8787, options.host ?? '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://${address.address}:${address.port}`,
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
