import { BackendUnavailableError, BucketError } from '../errors.js';
import type { BucketRegistrationRecord, CallerBuckets, Clock, PendingBucketDelete } from '../ports.js';
import { type DocumentBlobs, later, PENDING_FIRST_RETRY_MS } from './document-blobs.js';
import { healthLine } from './failures.js';
import { parseBucketBlobKey } from './placement.js';

/** The longest wait between two attempts at a delete owed. */
const PENDING_MAX_RETRY_MS = 60 * 60_000;

export interface SweepReport {
  deleted: number;
  /** Owed no more: the tenant unregistered the bucket or registered another one (the object is the customer's). */
  dropped: number;
  stillPending: number;
}

/**
 * Retries the deletes owed to callers' buckets (DocumentBlobs.delete put
 * them in the backlog): each due entry is deleted in the bucket it names
 * while that bucket is still the tenant's registered one, and dropped once
 * it is not; a failure waits twice as long as the last time, up to an hour.
 * Run by a timer locally and by the scheduled sweeper on AWS.
 */
export class BucketDeleteRetry {
  constructor(private readonly deps: { buckets: CallerBuckets; blobs: DocumentBlobs; clock: Clock }) {}

  async sweep(limit = 100): Promise<SweepReport> {
    const { buckets, clock } = this.deps;
    const report: SweepReport = { deleted: 0, dropped: 0, stillPending: 0 };
    // Each tenant's registration is read once a sweep, however many of its deletes are due.
    const registrations = new Map<string, Promise<BucketRegistrationRecord | null>>();
    for (const entry of await buckets.pendingDeletes.due(clock.now(), limit)) {
      if (!registrations.has(entry.tenantId))
        registrations.set(entry.tenantId, buckets.registrations.get(entry.tenantId));
      const outcome = await this.retry(entry, await registrations.get(entry.tenantId)!);
      report[outcome] += 1;
    }
    return report;
  }

  private async retry(
    entry: PendingBucketDelete,
    registration: BucketRegistrationRecord | null,
  ): Promise<keyof SweepReport> {
    const { buckets, clock } = this.deps;
    const located = parseBucketBlobKey(entry.blobKey);
    if (!located || !registration || registration.location !== located.location) {
      await buckets.pendingDeletes.remove(entry.tenantId, entry.blobKey);
      return 'dropped';
    }
    try {
      await (await this.deps.blobs.store(registration)).delete(located.objectKey);
    } catch (error) {
      if (!(error instanceof BucketError) && !(error instanceof BackendUnavailableError)) throw error;
      if (error instanceof BucketError && error.kind === 'denied') this.deps.blobs.forget(entry.tenantId);
      // Worded as GET /v1/bucket words a failure (failures.ts).
      const reason = error instanceof BucketError ? healthLine(error, 'delete') : `service: ${error.message}`;
      const wait = Math.min(PENDING_MAX_RETRY_MS, PENDING_FIRST_RETRY_MS * 2 ** Math.min(entry.attempts + 1, 10));
      await buckets.pendingDeletes.retryLater(entry.tenantId, entry.blobKey, reason, later(clock.now(), wait));
      return 'stillPending';
    }
    await buckets.pendingDeletes.remove(entry.tenantId, entry.blobKey);
    return 'deleted';
  }
}
