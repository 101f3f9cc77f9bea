import type { IngestService } from '../../core/ingest.js';
import { formatTimestamp } from '../../core/dates.js';
import { logger } from '../../http/observability.js';

export interface SweeperDeps {
  ingest: Pick<IngestService, 'recoverStale'>;
  /** A document still processing after this long was abandoned (longer than any capture or ingest can take). */
  staleAfterSeconds: number;
  now?: () => Date;
}

/** The scheduled sweeper: rolls back captures a stopped function or a lost job left `processing`. */
export const createHandler = (deps: SweeperDeps) => async (): Promise<{ rolledBack: number }> => {
  const now = deps.now?.() ?? new Date();
  const olderThan = formatTimestamp(new Date(now.getTime() - deps.staleAfterSeconds * 1000));
  const rolledBack = await deps.ingest.recoverStale(olderThan);
  if (rolledBack) logger.warn('rolled back abandoned captures', { rolledBack, olderThan });
  return { rolledBack };
};
