import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { parseIngestJob } from '../../adapters/aws/sqs-ingest-queue.js';
import type { IngestService } from '../../core/ingest.js';
import { logger } from '../../http/observability.js';

export interface IngestWorkerDeps {
  ingest: Pick<IngestService, 'complete'>;
  /** The queue's maxReceiveCount: the delivery that reaches it is the final attempt. */
  maxReceiveCount: number;
}

/**
 * The ingest function: one SQS batch of jobs, each finished by the core's
 * IngestService. A job whose backend failed is reported as a batch item
 * failure so SQS delivers it again (then the DLQ); on its final delivery it
 * ends the document `failed` instead, so nothing stays `processing` forever.
 */
export const createHandler =
  (deps: IngestWorkerDeps) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const batchItemFailures: SQSBatchResponse['batchItemFailures'] = [];
    for (const record of event.Records) {
      const job = parseIngestJob(record.body);
      if (!job) {
        logger.error('dropped a malformed ingest message', { messageId: record.messageId });
        continue;
      }
      const finalAttempt = Number(record.attributes?.ApproximateReceiveCount ?? '1') >= deps.maxReceiveCount;
      try {
        const result = await deps.ingest.complete(job, { finalAttempt });
        logger.info('ingest finished', { ...result, tenantId: job.tenantId });
      } catch (error) {
        logger.warn('ingest will be retried', { documentId: job.documentId, tenantId: job.tenantId, error: error as Error });
        batchItemFailures.push({ itemIdentifier: record.messageId });
      }
    }
    return { batchItemFailures };
  };
