import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { captureLambdaHandler } from '@aws-lambda-powertools/tracer/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { UsageLedger } from '../../core/ports.js';
import { CorsPolicy, eventHeader, withCorsHeaders } from '../../http/cors.js';
import type { CaptureOutcome } from '../../http/observability.js';
import { awsConfig } from './config.js';
import { METRIC, METRICS_NAMESPACE, METRICS_SERVICE, REJECT_CODE_DIMENSION } from './metric-names.js';

/**
 * Tracing and metrics of the Lambda functions, created once per Lambda
 * environment and shared (Powertools' advice). The logger is the HTTP
 * layer's (lambdas/http/observability.ts: one log context per request); the
 * service name and log level come from POWERTOOLS_* variables the CDK stack
 * sets. Only AWS entries import this module: the core and the local stack
 * know nothing of it.
 */
export const tracer = new Tracer({ serviceName: METRICS_SERVICE });
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: METRICS_SERVICE });

type LambdaHandler<E, R> = (event: E, context: Context) => Promise<R>;

/** Publishes the metrics stored so far (an invocation's, as it ends; a stream's, once it has been written). */
export async function publishStoredMetrics(): Promise<void> {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}

/**
 * Every function's handler, as its Lambda entry exports it: the Tracer's
 * handler capture (an X-Ray subsegment with the cold start annotated and
 * errors recorded; responses are not captured, since they hold document
 * text), and the metrics the invocation stored published when it ends.
 */
// biome-ignore lint/suspicious/noExplicitAny: any Lambda handler, whatever its event type
export function instrumented<H extends (event: any, context: Context) => Promise<unknown>>(handler: H): H {
  const publish = publishStoredMetrics;
  return middy(handler)
    .use(captureLambdaHandler(tracer, { captureResponse: false }))
    .use({ after: publish, onError: publish })
    .use({ after: addCorsHeaders }) as unknown as H;
}

let cors: CorsPolicy | undefined;

/**
 * The CORS headers on every answer of an API function (a REST proxy event
 * with a proxy result; the authorizer and the workers are left alone): API
 * Gateway passes a proxy response through as it is, so the function adds
 * them. The allowed origins come from the wiring's configuration, read once.
 */
async function addCorsHeaders(request: { event: unknown; response: unknown }): Promise<void> {
  const event = request.event as { httpMethod?: unknown; headers?: Record<string, string | undefined> | null } | null;
  const response = request.response as { statusCode?: unknown; headers?: Record<string, unknown> } | null;
  if (typeof event?.httpMethod !== 'string' || typeof response?.statusCode !== 'number') return;
  cors ??= new CorsPolicy(awsConfig().corsOrigins);
  if (!cors.enabled) return;
  response.headers = withCorsHeaders(response.headers, cors.responseHeaders(eventHeader(event.headers, 'origin')));
}

const count = (name: string, value = 1) => {
  if (value > 0) metrics.addMetric(name, MetricUnit.Count, value);
};

/** A capture receipt as metrics: its status, and a rejection by its code (a metric of its own, with the code as dimension). */
export function countCapture(receipt: CaptureOutcome): void {
  if (receipt.status === 'created') count(METRIC.capturesCreated);
  else if (receipt.status === 'deduped') count(METRIC.capturesDeduped);
  else count(METRIC.capturesRejected);
  if (receipt.reject_code) {
    const single = metrics.singleMetric();
    single.addDimension(REJECT_CODE_DIMENSION, receipt.reject_code);
    single.addMetric(METRIC.captureRejections, MetricUnit.Count, 1);
  }
}

/** The usage ledger, counting what it records (tokens, chat calls, OCR pages) as metrics once it is stored. */
export function meteredUsage(ledger: UsageLedger): UsageLedger {
  return {
    days: (tenantId, from, to) => ledger.days(tenantId, from, to),
    async add(tenantId, date, delta) {
      await ledger.add(tenantId, date, delta);
      count(METRIC.tokensUsed, delta.tokensUsed);
      count(METRIC.chatCalls, delta.chatCalls);
      count(METRIC.ocrPages, delta.ocrPages);
    },
  };
}

/** The ingest worker's outcomes as metrics: ready, unreadable files, and documents failed because a backend never recovered. */
export function observeIngestOutcomes<
  W extends {
    runToCompletion(...args: never[]): Promise<{ outcome: string }>;
    fail(doc: never, reason: string): Promise<{ outcome: string }>;
  },
>(worker: W): W {
  const run = worker.runToCompletion.bind(worker) as (...args: never[]) => Promise<{ outcome: string }>;
  const fail = worker.fail.bind(worker) as (doc: never, reason: string) => Promise<{ outcome: string }>;
  Object.assign(worker, {
    runToCompletion: async (...args: never[]) => {
      const result = await run(...args);
      if (result.outcome === 'ready') count(METRIC.ingestReady);
      return result;
    },
    // Every failed ending passes here (an unreadable file during extraction, or the final delivery giving up).
    fail: async (doc: never, reason: string) => {
      const result = await fail(doc, reason);
      count(reason.startsWith('backend_unavailable') ? METRIC.ingestGaveUp : METRIC.ingestUnreadable);
      return result;
    },
  });
  return worker;
}

/** Counts each document the sweeper settles failed. */
export function observeAbandoned<W extends { fail(doc: never, reason: string): Promise<unknown> }>(worker: W): W {
  const fail = worker.fail.bind(worker) as (doc: never, reason: string) => Promise<unknown>;
  Object.assign(worker, {
    fail: async (doc: never, reason: string) => {
      const result = await fail(doc, reason);
      count(METRIC.documentsAbandoned);
      return result;
    },
  });
  return worker;
}

/** The SQS side of the ingest function: how long each job waited in the queue, how many go back to it, and malformed ones dropped. */
export function withQueueMetrics(
  handler: LambdaHandler<SQSEvent, SQSBatchResponse>,
  /** The handler's own reading of a message (null: malformed, dropped). Passed in, so only the ingest function bundles the SQS adapter. */
  parseJob: (body: string) => unknown,
): LambdaHandler<SQSEvent, SQSBatchResponse> {
  return async (event, context) => {
    const now = Date.now();
    for (const record of event.Records ?? []) {
      const sent = Number(record.attributes?.SentTimestamp);
      if (Number.isFinite(sent) && sent > 0)
        metrics.addMetric(METRIC.ingestQueueAge, MetricUnit.Milliseconds, Math.max(0, now - sent));
      // The handler drops these (the same body would fail the same way): counted here.
      if (!parseJob(record.body)) count(METRIC.ingestDropped);
    }
    const response = await handler(event, context);
    count(METRIC.ingestRetried, response.batchItemFailures?.length ?? 0);
    return response;
  };
}
