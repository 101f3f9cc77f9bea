import type { PendingBucketDelete, PendingBucketDeletes } from '../../core/ports.js';
import type { SqliteDatabase } from './database.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS bucket_pending_deletes (
  tenant_id TEXT NOT NULL,
  blob_key TEXT NOT NULL,
  since TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  last_error TEXT,
  next_attempt_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, blob_key)
);
CREATE INDEX IF NOT EXISTS bucket_pending_deletes_due ON bucket_pending_deletes(next_attempt_at);
`;

interface Row {
  tenant_id: string;
  blob_key: string;
  since: string;
  attempts: number;
  last_error: string | null;
  next_attempt_at: string;
}

/** The deletes owed to callers' buckets, durable across restarts, in the same SQLite file. */
export class SqlitePendingBucketDeletes implements PendingBucketDeletes {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(SCHEMA);
  }

  async add(
    items: ReadonlyArray<Pick<PendingBucketDelete, 'tenantId' | 'blobKey' | 'since' | 'nextAttemptAt'>>,
  ): Promise<void> {
    const insert = this.db.prepare(
      'INSERT OR IGNORE INTO bucket_pending_deletes (tenant_id, blob_key, since, next_attempt_at) VALUES (?, ?, ?, ?)',
    );
    this.db.transaction(() => {
      for (const i of items) insert.run(i.tenantId, i.blobKey, i.since, i.nextAttemptAt);
    })();
  }

  async due(now: string, limit: number): Promise<PendingBucketDelete[]> {
    const rows = this.db
      .prepare('SELECT * FROM bucket_pending_deletes WHERE next_attempt_at <= ? ORDER BY next_attempt_at LIMIT ?')
      .all(now, limit) as Row[];
    return rows.map((r) => ({
      tenantId: r.tenant_id,
      blobKey: r.blob_key,
      since: r.since,
      attempts: r.attempts,
      lastError: r.last_error,
      nextAttemptAt: r.next_attempt_at,
    }));
  }

  async remove(tenantId: string, blobKey: string): Promise<void> {
    this.db.prepare('DELETE FROM bucket_pending_deletes WHERE tenant_id = ? AND blob_key = ?').run(tenantId, blobKey);
  }

  async retryLater(tenantId: string, blobKey: string, lastError: string, nextAttemptAt: string): Promise<void> {
    this.db
      .prepare(
        'UPDATE bucket_pending_deletes SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE tenant_id = ? AND blob_key = ?',
      )
      .run(lastError, nextAttemptAt, tenantId, blobKey);
  }

  async removeTenant(tenantId: string): Promise<number> {
    return this.db.prepare('DELETE FROM bucket_pending_deletes WHERE tenant_id = ?').run(tenantId).changes;
  }

  async count(tenantId: string): Promise<number> {
    return (
      this.db.prepare('SELECT count(*) AS n FROM bucket_pending_deletes WHERE tenant_id = ?').get(tenantId) as {
        n: number;
      }
    ).n;
  }
}
