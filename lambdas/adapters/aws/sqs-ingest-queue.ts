import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { IngestJob, IngestQueue } from '../../ports.js';
import { callAws } from './errors.js';

/**
 * The ingest queue on SQS: one message per job, the job as JSON. Always
 * idle as far as a capture can tell: each Lambda makes its own embedder calls,
 * so a small single capture never waits behind the queue's work and is
 * embedded in its own request; the queue takes the big work (batches, large
 * texts, files to extract). No `settled`: the worker runs in another function.
 */
export class SqsIngestQueue implements IngestQueue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  isIdle(): boolean {
    return true;
  }

  async enqueue(job: IngestJob): Promise<void> {
    await callAws('ingest.enqueue', () =>
      this.client.send(new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: JSON.stringify(job) })),
    );
  }
}

/** Reads a job back from a message body; null when the body is not one. */
export function parseIngestJob(body: string): IngestJob | null {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return null;
  }
  const job = value as Partial<IngestJob>;
  if (typeof job !== 'object' || job === null) return null;
  if (typeof job.tenantId !== 'string' || !job.tenantId || typeof job.documentId !== 'string' || !job.documentId) return null;
  if (job.endUserId !== null && typeof job.endUserId !== 'string') return null;
  return { tenantId: job.tenantId, endUserId: job.endUserId, documentId: job.documentId };
}
