import type { IngestJob, IngestQueue } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS ingest_jobs (
  document_id TEXT PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  end_user_id TEXT NOT NULL,
  enqueued_at INTEGER NOT NULL,
  -- Extractions of this job begun and never ended: each one the process died in.
  extractions_cut_off INTEGER NOT NULL DEFAULT 0
);
`;

/** What drains the queue in this process: it knows whether work runs and when a document is done. */
export interface QueueDrain {
  /** A job was added: schedule it. */
  wake(job: QueuedJob): void;
  isIdle(): boolean;
}

export interface QueuedJob extends IngestJob {
  /** Milliseconds since the epoch: first come, first served within a library. */
  enqueuedAt: number;
}

/**
 * The local ingestion queue: a table in the same SQLite file as the
 * documents and the index, so a job is as durable as the document it is for
 * and survives a kill -9. The drain (wiring/local/ingest-drain.ts) takes its jobs
 * and removes each when its document has left `processing`.
 */
export class SqliteIngestQueue implements IngestQueue {
  private drain: QueueDrain | null = null;

  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
    // A data folder from before the counter: add it.
    const columns = db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('ingest_jobs') as string[];
    if (!columns.includes('extractions_cut_off'))
      db.exec('ALTER TABLE ingest_jobs ADD COLUMN extractions_cut_off INTEGER NOT NULL DEFAULT 0');
  }

  /** The drain that works this queue in this process. */
  attach(drain: QueueDrain): void {
    this.drain = drain;
  }

  async enqueue(job: IngestJob): Promise<void> {
    await this.enqueueMany([job]);
  }

  async enqueueMany(jobs: readonly IngestJob[]): Promise<void> {
    const enqueuedAt = Date.now();
    const queued: QueuedJob[] = jobs.map((job) => ({ ...job, enqueuedAt }));
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO ingest_jobs (document_id, tenant_id, end_user_id, enqueued_at) VALUES (?, ?, ?, ?)',
    );
    // One commit for all; the drain hears of them once they are durable.
    this.db.transaction(() => {
      for (const job of queued) insert.run(job.documentId, job.tenantId, job.endUserId ?? '', job.enqueuedAt);
    })();
    for (const job of queued) this.drain?.wake(job);
  }

  isIdle(): boolean {
    return this.drain ? this.drain.isIdle() : !this.db.prepare('SELECT 1 FROM ingest_jobs LIMIT 1').get();
  }

  /** Every job, oldest first (what a drain resumes at start-up). */
  all(): QueuedJob[] {
    const rows = this.db.prepare('SELECT * FROM ingest_jobs ORDER BY enqueued_at, document_id').all() as Array<{
      document_id: string;
      tenant_id: string;
      end_user_id: string;
      enqueued_at: number;
    }>;
    return rows.map((r) => ({
      documentId: r.document_id,
      tenantId: r.tenant_id,
      endUserId: r.end_user_id || null,
      enqueuedAt: r.enqueued_at,
    }));
  }

  has(documentId: string): boolean {
    return !!this.db.prepare('SELECT 1 FROM ingest_jobs WHERE document_id = ?').get(documentId);
  }

  remove(documentId: string): void {
    this.db.prepare('DELETE FROM ingest_jobs WHERE document_id = ?').run(documentId);
  }

  /**
   * Notes, durably, that an extraction of this job begins; returns how many
   * begun before never ended (the process died while reading the file).
   * `extractionEnded` clears it whatever the outcome.
   */
  extractionBegins(documentId: string): number {
    const row = this.db
      .prepare(
        'UPDATE ingest_jobs SET extractions_cut_off = extractions_cut_off + 1 WHERE document_id = ? RETURNING extractions_cut_off',
      )
      .get(documentId) as { extractions_cut_off: number } | undefined;
    return row ? row.extractions_cut_off - 1 : 0;
  }

  extractionEnded(documentId: string): void {
    this.db.prepare('UPDATE ingest_jobs SET extractions_cut_off = 0 WHERE document_id = ?').run(documentId);
  }

  /** Jobs and the passages still waiting for vectors, for health. */
  backlog(): { documents: number; passages: number } {
    const documents = (this.db.prepare('SELECT count(*) FROM ingest_jobs').pluck().get() as number) ?? 0;
    const passages =
      (this.db
        .prepare(
          `SELECT coalesce(sum(coalesce(d.passage_count, 0) - d.passages_embedded), 0) FROM ingest_jobs j
         JOIN documents d ON d.id = j.document_id`,
        )
        .pluck()
        .get() as number) ?? 0;
    return { documents, passages };
  }
}
