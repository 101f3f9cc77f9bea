import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import {
  type LibraryReferences,
  parseIngestMessage,
  resolveIngestMessage,
} from '../../adapters/aws/sqs-ingest-queue.js';
import { BackendUnavailableError } from '../../core/errors.js';
import { IngestWorker, type StepResult } from '../../core/ingest-worker.js';
import type { IngestJob } from '../../core/ports.js';
import { logger } from '../../http/observability.js';

/** How the worker waits out a backend that throttles or fails (Bedrock, OpenSearch, DynamoDB). */
export interface BackoffSettings {
  /** The first wait; each retry doubles it, up to maxDelayMs. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** Time kept free at the end of the invocation: no retry starts within it. */
  marginMs: number;
}

export const DEFAULT_BACKOFF: BackoffSettings = { baseDelayMs: 1_000, maxDelayMs: 30_000, marginMs: 60_000 };

export interface IngestHandlerDeps {
  worker: Pick<IngestWorker, 'runToCompletion' | 'next' | 'fail'>;
  /** Resolves the library reference a job body carries instead of an end user id (the documents table). */
  references: Pick<LibraryReferences, 'resolveLibraryReference'>;
  /** The queue's maxReceiveCount: the delivery that reaches it is the final attempt. */
  maxReceiveCount: number;
  /** Embedding steps of one job in flight at once (each a few passages, one Bedrock call per passage). */
  concurrency: number;
  /** Passages per embedding step; the core's default when absent. */
  stepPassages?: number;
  backoff?: BackoffSettings;
  /** Injected by tests: waits, and the jitter's randomness. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** A record whose job is not done yet: SQS delivers it again (reported as a batch item failure). */
class RetryLater extends Error {
  constructor(
    readonly documentId: string,
    cause: unknown,
  ) {
    super(`ingest of ${documentId} will be retried: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'RetryLater';
  }
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The wait before retry number `attempt` (0-based): exponential, capped, with
 * "equal jitter" (half fixed, half random) so workers throttled together do
 * not come back together; never shorter than the backend asked for.
 */
export function backoffDelay(attempt: number, error: unknown, settings: BackoffSettings, random: () => number): number {
  const exponential = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** attempt);
  const jittered = exponential / 2 + random() * (exponential / 2);
  const asked = error instanceof BackendUnavailableError ? error.retryAfterSeconds * 1000 : 0;
  return Math.round(Math.min(settings.maxDelayMs, Math.max(jittered, asked)));
}

/**
 * The ingest function: one SQS batch of jobs, each run to completion by the
 * core's IngestWorker (extraction if needed, then every passage embedded,
 * `concurrency` steps at a time). A backend that throttles or fails is
 * retried within the invocation with exponential backoff and jitter while
 * the remaining time allows; then the record is reported as a batch item
 * failure (Powertools batch utility) so SQS delivers it again, and its
 * finished steps stay done. On the final delivery it ends the document
 * `failed` with its reason instead, so nothing stays `processing` forever
 * (the sweeper settles what even that missed).
 */
export function createHandler(deps: IngestHandlerDeps) {
  const backoff = deps.backoff ?? DEFAULT_BACKOFF;
  const sleep = deps.sleep ?? realSleep;
  const random = deps.random ?? Math.random;
  const processor = new BatchProcessor(EventType.SQS);

  async function runWithBackoff(job: IngestJob, context: Context | undefined): Promise<StepResult> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await deps.worker.runToCompletion(job, {
          concurrency: deps.concurrency,
          stepPassages: deps.stepPassages,
        });
      } catch (error) {
        if (!(error instanceof BackendUnavailableError)) throw error;
        const delay = backoffDelay(attempt, error, backoff, random);
        const remaining = context?.getRemainingTimeInMillis?.() ?? Number.POSITIVE_INFINITY;
        if (remaining - delay < backoff.marginMs) throw error;
        logger.warn('ingest backend unavailable: backing off', {
          documentId: job.documentId,
          tenantId: job.tenantId,
          attempt: attempt + 1,
          delayMs: delay,
          error: error.message,
        });
        await sleep(delay);
      }
    }
  }

  async function processRecord(record: SQSRecord, context?: Context): Promise<StepResult | null> {
    const message = parseIngestMessage(record.body);
    if (!message) {
      // Never retried: the same body would fail the same way.
      logger.error('dropped a malformed ingest message', { messageId: record.messageId });
      return null;
    }
    const finalAttempt = Number(record.attributes?.ApproximateReceiveCount ?? '1') >= deps.maxReceiveCount;
    let job: IngestJob | null;
    try {
      job = await resolveIngestMessage(message, deps.references);
    } catch (error) {
      if (!finalAttempt) throw new RetryLater(message.documentId, error);
      // The document cannot be found without its library: the sweeper settles it failed later.
      logger.error('ingest gave up on its final attempt: its library could not be read', {
        documentId: message.documentId,
        tenantId: message.tenantId,
        error: error as Error,
      });
      return { outcome: 'skipped' };
    }
    if (!job) {
      // The reference resolves to nothing: the library was erased, and its documents with it.
      logger.info('ingest skipped: its library was erased', {
        documentId: message.documentId,
        tenantId: message.tenantId,
      });
      return { outcome: 'skipped' };
    }
    try {
      const result = await runWithBackoff(job, context);
      logger.info('ingest finished', { ...result, documentId: job.documentId, tenantId: job.tenantId });
      return result;
    } catch (error) {
      if (!finalAttempt) {
        logger.warn('ingest will be retried', {
          documentId: job.documentId,
          tenantId: job.tenantId,
          error: error as Error,
        });
        throw new RetryLater(job.documentId, error);
      }
      // The last delivery: end the document failed (with why) rather than leave it processing.
      const next = await deps.worker.next(job);
      const result: StepResult = next
        ? await deps.worker.fail(next.doc, IngestWorker.gaveUp(error))
        : { outcome: 'skipped' };
      logger.error('ingest gave up on its final attempt', {
        ...result,
        documentId: job.documentId,
        tenantId: job.tenantId,
        error: error as Error,
      });
      return result;
    }
  }

  return async (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    processPartialResponse(event, processRecord, processor, {
      context,
      // One job at a time: each already embeds `concurrency` steps at once, and they share the remaining time.
      processInParallel: false,
      // A batch whose every record failed is reported like any other (each record retried by SQS), not thrown.
      throwOnFullBatchFailure: false,
    });
}
