import type { BucketDeleteRetry, SweepReport } from '../../core/bucket/delete-retry.js';
import { formatTimestamp } from '../../core/dates.js';
import type { IngestWorker } from '../../core/ingest-worker.js';
import type { DocumentStore } from '../../core/ports.js';
import { logger } from '../../http/observability.js';

/** Why a document the sweeper settles failed: its capture or its ingest job was lost beyond every retry. */
export const ABANDONED_REASON = 'backend_unavailable: indexing did not finish';

export interface SweeperDeps {
  documents: Pick<DocumentStore, 'listStaleProcessing'>;
  worker: Pick<IngestWorker, 'fail'>;
  /** A document still processing after this long was abandoned (longer than any capture or every delivery of its ingest job can take). */
  staleAfterSeconds: number;
  /** The deletes owed to callers' buckets, retried on each run (core/bucket/delete-retry.ts). */
  bucketDeletes?: Pick<BucketDeleteRetry, 'sweep'>;
  now?: () => Date;
}

/** Deletes owed to callers' buckets retried per batch, and batches per run at most (the next run goes on). */
const BUCKET_DELETE_BATCH = 100;
const BUCKET_DELETE_BATCHES = 5;

/**
 * The scheduled sweeper: a document still `processing` after the stale
 * window (a capture function stopped before queueing it, or its ingest job
 * lost beyond its retries) is settled `failed` with a reason, and its index
 * entries removed, so the caller reads why; sending the same content again
 * captures it anew. One that cannot be settled now is left for the next run.
 * Then the deletes owed to callers' buckets that are due are tried again:
 * done, dropped (the tenant unregistered or moved), or put off (longer each
 * time, up to an hour).
 */
export const createHandler =
  (deps: SweeperDeps) => async (): Promise<{ failed: number; errors: number; bucketDeletes?: SweepReport }> => {
    const now = deps.now?.() ?? new Date();
    const olderThan = formatTimestamp(new Date(now.getTime() - deps.staleAfterSeconds * 1000));
    const stale = await deps.documents.listStaleProcessing(olderThan);
    let failed = 0;
    let errors = 0;
    for (const doc of stale) {
      try {
        await deps.worker.fail(doc, ABANDONED_REASON);
        failed += 1;
      } catch (error) {
        errors += 1;
        logger.error('could not settle an abandoned document', {
          documentId: doc.id,
          tenantId: doc.tenantId,
          error: error as Error,
        });
      }
    }
    if (failed) logger.warn('settled abandoned documents failed', { failed, olderThan });
    const bucketDeletes = deps.bucketDeletes ? await retryBucketDeletes(deps.bucketDeletes) : undefined;
    if (errors)
      throw new Error(
        `sweeper: ${errors} of ${stale.length} abandoned documents could not be settled (retried on the next run)`,
      );
    return bucketDeletes ? { failed, errors, bucketDeletes } : { failed, errors };
  };

async function retryBucketDeletes(retry: Pick<BucketDeleteRetry, 'sweep'>): Promise<SweepReport> {
  const total: SweepReport = { deleted: 0, dropped: 0, stillPending: 0 };
  for (let batch = 0; batch < BUCKET_DELETE_BATCHES; batch++) {
    const report = await retry.sweep(BUCKET_DELETE_BATCH);
    total.deleted += report.deleted;
    total.dropped += report.dropped;
    total.stillPending += report.stillPending;
    // A short batch: nothing more is due now.
    if (report.deleted + report.dropped + report.stillPending < BUCKET_DELETE_BATCH) break;
  }
  if (total.deleted + total.dropped + total.stillPending)
    logger.info("retried the deletes owed to callers' buckets", { ...total });
  return total;
}
