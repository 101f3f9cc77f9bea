import type { Writable } from 'node:stream';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { type ApiHandler, type ApiResult, errorResponse, requestIdOf } from '../../http/endpoint.js';
import { HttpError } from '../../http/errors.js';
import { logger } from '../../http/observability.js';

/**
 * Lambda response streaming for a route whose API Gateway integration
 * streams (response transfer mode STREAM: API Gateway calls the function
 * with InvokeWithResponseStream). The Node.js runtime gives such a function
 * the global `awslambda`: `streamifyResponse` marks the handler as one that
 * writes its answer to a stream, and `HttpResponseStream.from` writes the
 * HTTP status and headers first (a JSON prelude and a delimiter API Gateway
 * reads). The endpoint's handler stays the one the local gateway calls: its
 * answer, JSON or a stream of server-sent events, is written here.
 */

/** The part of the response stream written to (a Writable, plus what the runtime adds). */
export interface LambdaResponseStream extends Writable {
  setContentType?(contentType: string): void;
}

/** The part of the runtime's global `awslambda` used here (declared in full by @types/aws-lambda). */
export interface LambdaStreamingRuntime {
  streamifyResponse(
    handler: (event: APIGatewayProxyEvent, responseStream: LambdaResponseStream, context: Context) => Promise<void>,
  ): unknown;
  HttpResponseStream: {
    from(stream: Writable, metadata: { statusCode: number; headers?: Record<string, string> }): LambdaResponseStream;
  };
}

/**
 * The runtime's `awslambda` when it can stream; undefined outside Lambda
 * (tests, tools that import the entry). The AWS SDK's invoke store makes an
 * empty `awslambda` object where there is none, so the function itself is
 * what is looked for.
 */
export function lambdaRuntime(): LambdaStreamingRuntime | undefined {
  const runtime = (globalThis as { awslambda?: Partial<LambdaStreamingRuntime> }).awslambda;
  return typeof runtime?.streamifyResponse === 'function' && typeof runtime.HttpResponseStream?.from === 'function'
    ? (runtime as LambdaStreamingRuntime)
    : undefined;
}

/** Waits until the stream takes more, or will take nothing more (the client went away, or it failed). */
const writable = (stream: Writable) =>
  new Promise<void>((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });

const ended = (stream: Writable) =>
  new Promise<void>((resolve) => {
    if (stream.writableFinished || stream.destroyed) return resolve();
    stream.once('finish', () => resolve());
    stream.once('close', () => resolve());
    stream.once('error', () => resolve());
  });

/**
 * Writes one handler's answer to the response stream: status and headers
 * (HttpResponseStream.from), then the JSON body, or the streamed chunks as
 * they come. A stream is read to its end even when the client has gone
 * (writing then stops): the work behind it completes before the function
 * is frozen.
 */
export async function writeResult(
  runtime: LambdaStreamingRuntime,
  responseStream: Writable,
  result: ApiResult,
): Promise<void> {
  const headers = Object.fromEntries(Object.entries(result.headers ?? {}).map(([k, v]) => [k, String(v)]));
  const http = runtime.HttpResponseStream.from(responseStream, { statusCode: result.statusCode, headers });
  // A write after the client left fails on the stream: that is not the function's failure.
  http.on('error', (error) => logger.warn('the response stream failed; the rest of the answer is not sent', { error }));
  const write = async (chunk: string | Buffer) => {
    if (http.destroyed || http.writableEnded) return;
    if (!http.write(chunk)) await writable(http);
  };
  try {
    if (result.stream) {
      for await (const chunk of result.stream) await write(chunk);
    } else if (result.body) {
      await write(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
    }
  } finally {
    if (!http.destroyed && !http.writableEnded) http.end();
    await ended(http);
  }
}

/**
 * The Lambda handler of a streaming route: `handler` (the endpoint, with
 * its middlewares) answers as everywhere, and its answer is written to the
 * response stream. `afterStream` runs once the answer is written (metrics
 * recorded while a stream ran are published then). Outside the Lambda
 * runtime (no `awslambda`) the handler is returned as it is.
 */
export function streamingHandler(
  handler: ApiHandler,
  options: { afterStream?: () => void | Promise<void>; runtime?: LambdaStreamingRuntime } = {},
): unknown {
  const runtime = options.runtime ?? lambdaRuntime();
  if (!runtime) return handler;
  return runtime.streamifyResponse(async (event, responseStream, context) => {
    let result: ApiResult;
    try {
      result = await handler(event, context);
    } catch (error) {
      // The endpoint maps its own failures; anything escaping it still answers the contract's error.
      logger.error('request failed', { error: error as Error });
      result = errorResponse(
        new HttpError('internal_error', 'internal error; nothing half-written was kept'),
        requestIdOf(event),
      );
    }
    try {
      await writeResult(runtime, responseStream, result);
    } finally {
      await options.afterStream?.();
    }
  });
}
