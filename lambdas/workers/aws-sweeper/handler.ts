import { formatTimestamp } from '../../core/dates.js';
import type { IngestWorker } from '../../core/ingest-worker.js';
import { logger } from '../../http/observability.js';
import type { DocumentStore } from '../../ports.js';

/** Why a document the sweeper settles failed: its capture or its ingest job was lost beyond every retry. */
export const ABANDONED_REASON = 'backend_unavailable: indexing did not finish';

export interface SweeperDeps {
  documents: Pick<DocumentStore, 'listStaleProcessing'>;
  worker: Pick<IngestWorker, 'fail'>;
  /** A document still processing after this long was abandoned (longer than any capture or every delivery of its ingest job can take). */
  staleAfterSeconds: number;
  now?: () => Date;
}

/**
 * The scheduled sweeper: a document still `processing` after the stale
 * window (a capture function stopped before queueing it, or its ingest job
 * lost beyond its retries) is settled `failed` with a reason, and its index
 * entries removed, so the caller reads why; sending the same content again
 * captures it anew. One that cannot be settled now is left for the next run.
 */
export const createHandler = (deps: SweeperDeps) => async (): Promise<{ failed: number; errors: number }> => {
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
      logger.error('could not settle an abandoned document', { documentId: doc.id, tenantId: doc.tenantId, error: error as Error });
    }
  }
  if (failed) logger.warn('settled abandoned documents failed', { failed, olderThan });
  if (errors) throw new Error(`sweeper: ${errors} of ${stale.length} abandoned documents could not be settled (retried on the next run)`);
  return { failed, errors };
};
