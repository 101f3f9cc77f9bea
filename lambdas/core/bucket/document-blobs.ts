import { formatTimestamp, systemClock } from '../dates.js';
import { BackendUnavailableError, BucketError } from '../errors.js';
import type { DocumentRecord, LibraryRef, Storage } from '../model.js';
import type { BlobStore, BucketRegistrationRecord, CallerBuckets, Clock } from '../ports.js';
import { openBucket } from './access.js';
import { captureFailure, downloadFailure, healthLine } from './failures.js';
import { bucketBlobKey, objectKeyFor, parseBucketBlobKey, serviceBlobKey } from './placement.js';

export interface DocumentBlobDeps {
  blobs: BlobStore;
  /** Absent (a stack without the feature wired): every blob is the service's. */
  buckets?: CallerBuckets;
  /** Default: the system clock. */
  clock?: Clock;
}

/** Where a new document's bytes go. */
export interface Placement {
  storage: Storage;
  blobKey(documentId: string): string;
}

/** The headers a download link answers with, and how long it lives (BlobStore.downloadUrl). */
export interface DownloadLink {
  expiresInSeconds: number;
  contentType: string;
  contentDisposition: string;
}

/**
 * A document's file for its owner to download: the bytes, or a short-lived
 * link to them; `missing` when its store holds no such object; `gone` when
 * it lies in a bucket the tenant no longer has registered (the customer's
 * alone: the service reads it no more), with its key there.
 */
export type Download =
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'link'; url: string }
  | { kind: 'missing' }
  | { kind: 'gone'; objectKey: string };

/** What deleting a document's bytes came to: done, owed to the caller's bucket (retried in the background), or nothing to do. */
export type BlobDeletion = 'deleted' | 'pending' | 'none';

/** Deletes owed to a bucket are first retried this long after the failure, then twice as long each time, up to an hour. */
export const PENDING_FIRST_RETRY_MS = 60_000;

const MAX_OPEN_STORES = 256;

/**
 * The one place that decides which store holds a document's bytes: the
 * service's, or the tenant's registered bucket (API.md "Caller-owned
 * bucket"). Capture, the ingest worker, deletion and erasure all go through
 * it. A bucket document is read or deleted only in the bucket it was written
 * to: after the tenant unregisters or registers another bucket, its object
 * is the customer's alone and the service touches it no more.
 */
export class DocumentBlobs {
  /** Opened stores by registration (tenant, location, credentials): a secret is opened once per registration, not per call. */
  private readonly open = new Map<string, Promise<BlobStore>>();

  private readonly clock: Clock;

  constructor(private readonly deps: DocumentBlobDeps) {
    this.clock = deps.clock ?? systemClock();
  }

  /** Where a capture for this library puts its bytes now: the registered bucket, else the service's storage. */
  async placement(ref: LibraryRef): Promise<Placement> {
    const registration = await this.registration(ref.tenantId);
    if (!registration) return { storage: 'service', blobKey: (id) => serviceBlobKey(ref.tenantId, id) };
    return {
      storage: 'bucket',
      blobKey: (id) => bucketBlobKey(registration.location, objectKeyFor(registration.prefix, ref, id)),
    };
  }

  /**
   * Stores a captured document's bytes. A bucket that refuses or cannot be
   * reached fails the capture (core/bucket/failures.ts) and marks the
   * registration failing; a write that works marks a failing one ok again.
   */
  async put(doc: DocumentRecord, bytes: Uint8Array): Promise<void> {
    const target = await this.bucketOf(doc);
    if (!target) return this.deps.blobs.put(doc.blobKey!, bytes, doc.contentType);
    if (target === 'gone')
      throw new BackendUnavailableError(
        "the tenant's bucket registration changed while this capture ran; nothing was stored; retry",
      );
    const { registration, objectKey } = target;
    try {
      await (await this.store(registration)).put(objectKey, bytes, doc.contentType);
    } catch (error) {
      if (!(error instanceof BucketError)) throw error;
      await this.recordFailure(registration, error, 'write');
      throw captureFailure(error, 'write');
    }
    if (registration.state === 'failing') await this.recordRecovery(registration);
  }

  /** A document's bytes (the ingest worker's read); null when they are missing or no longer reachable by the service. */
  async get(doc: DocumentRecord): Promise<Uint8Array | null> {
    const target = await this.bucketOf(doc);
    if (!target) return this.deps.blobs.get(doc.blobKey!);
    if (target === 'gone') return null;
    try {
      return await (await this.store(target.registration)).get(target.objectKey);
    } catch (error) {
      if (!(error instanceof BucketError)) throw error;
      await this.recordFailure(target.registration, error, 'read');
      throw captureFailure(error, 'read');
    }
  }

  /**
   * A document's file, for GET /v1/documents/{id}/file: a link when one is
   * asked for and its store makes them (S3: presigned with the service's own
   * credentials, or with the caller's for their bucket), else the bytes. A
   * bucket that refuses or cannot be reached marks the registration failing
   * (as a queued read does) and answers `bucket_access_denied` or
   * `unavailable` (failures.ts, downloadFailure).
   */
  async download(doc: DocumentRecord, link?: DownloadLink): Promise<Download> {
    if (!doc.blobKey) return { kind: 'missing' };
    const target = await this.bucketOf(doc);
    if (target === 'gone') return { kind: 'gone', objectKey: parseBucketBlobKey(doc.blobKey)!.objectKey };
    if (!target) return fetchFrom(this.deps.blobs, doc.blobKey, link);
    try {
      return await fetchFrom(await this.store(target.registration), target.objectKey, link);
    } catch (error) {
      if (!(error instanceof BucketError)) throw error;
      await this.recordFailure(target.registration, error, 'read');
      throw downloadFailure(error);
    }
  }

  /**
   * Deletes a document's bytes. A bucket that refuses or cannot be reached
   * does not stop the deletion: the object is put in the backlog of deletes
   * owed (retried by core/bucket/delete-retry.ts) and reported `pending`.
   */
  async delete(doc: DocumentRecord, registration?: BucketRegistrationRecord | null): Promise<BlobDeletion> {
    if (!doc.blobKey) return 'none';
    const target = await this.bucketOf(doc, registration);
    if (!target) {
      await this.deps.blobs.delete(doc.blobKey);
      return 'deleted';
    }
    if (target === 'gone') return 'none';
    try {
      await (await this.store(target.registration)).delete(target.objectKey);
      return 'deleted';
    } catch (error) {
      // The service's own outage (BackendUnavailableError) postpones the delete too; only the bucket's failure marks its health.
      if (!(error instanceof BucketError) && !(error instanceof BackendUnavailableError)) throw error;
      const now = this.clock.now();
      await this.deps.buckets!.pendingDeletes.add([
        { tenantId: doc.tenantId, blobKey: doc.blobKey, since: now, nextAttemptAt: later(now, PENDING_FIRST_RETRY_MS) },
      ]);
      if (error instanceof BucketError) await this.recordFailure(target.registration, error, 'delete');
      return 'pending';
    }
  }

  /**
   * Deletes the bytes of one tenant's documents (an erasure): the tenant's
   * registration is read once for all of them, not once a document.
   */
  async deleteAll(tenantId: string, docs: readonly DocumentRecord[]): Promise<Record<BlobDeletion, number>> {
    const counts: Record<BlobDeletion, number> = { deleted: 0, pending: 0, none: 0 };
    const registration = docs.some((doc) => doc.storage === 'bucket') ? await this.registration(tenantId) : null;
    for (const doc of docs) counts[await this.delete(doc, registration)] += 1;
    return counts;
  }

  /** Drops what this process holds open for a tenant (its registration was replaced or removed). */
  forget(tenantId: string): void {
    for (const key of this.open.keys()) if (key.startsWith(`${JSON.stringify(tenantId)},`)) this.open.delete(key);
    this.deps.buckets?.connector.forget(tenantId);
  }

  /** A store over the registration's bucket, opened once per registration (and again after forget). */
  store(registration: BucketRegistrationRecord): Promise<BlobStore> {
    const key = [
      registration.tenantId,
      registration.location,
      registration.region,
      registration.roleArn,
      registration.accessKeyId,
      registration.sealedSecret,
    ]
      .map((v) => JSON.stringify(v))
      .join(',');
    let opened = this.open.get(key);
    if (!opened) {
      if (this.open.size >= MAX_OPEN_STORES) this.open.delete(this.open.keys().next().value!);
      opened = openBucket(this.deps.buckets!, registration);
      opened.catch(() => this.open.delete(key));
      this.open.set(key, opened);
    }
    return opened;
  }

  private registration(tenantId: string): Promise<BucketRegistrationRecord | null> {
    return this.deps.buckets ? this.deps.buckets.registrations.get(tenantId) : Promise.resolve(null);
  }

  /**
   * null: the service's storage. 'gone': a bucket document whose bucket is no longer the tenant's registered one.
   * `known`: the tenant's registration as the caller already read it (undefined: read it here).
   */
  private async bucketOf(
    doc: DocumentRecord,
    known?: BucketRegistrationRecord | null,
  ): Promise<{ registration: BucketRegistrationRecord; objectKey: string } | 'gone' | null> {
    const located = doc.storage === 'bucket' && doc.blobKey ? parseBucketBlobKey(doc.blobKey) : null;
    if (!located) return null;
    const registration = known !== undefined ? known : await this.registration(doc.tenantId);
    if (!registration || registration.location !== located.location) return 'gone';
    return { registration, objectKey: located.objectKey };
  }

  private async recordFailure(
    registration: BucketRegistrationRecord,
    error: BucketError,
    what: 'write' | 'read' | 'delete',
  ): Promise<void> {
    if (error.kind === 'denied') this.forget(registration.tenantId); // fresh credentials next time (a recreated role works at once)
    const at = this.clock.now();
    await this.deps
      .buckets!.registrations.recordHealth(registration.tenantId, registration.location, {
        state: 'failing',
        lastError: healthLine(error, what),
        lastErrorAt: at,
      })
      .catch(() => undefined); // the capture's own answer matters more than the health note
  }

  /** A working write after failures: the state is ok again; the last error stays readable (docs/api-notes.md). */
  private async recordRecovery(registration: BucketRegistrationRecord): Promise<void> {
    await this.deps
      .buckets!.registrations.recordHealth(registration.tenantId, registration.location, {
        state: 'ok',
        lastError: registration.lastError,
        lastErrorAt: registration.lastErrorAt,
      })
      .catch(() => undefined);
  }
}

async function fetchFrom(store: BlobStore, key: string, link: DownloadLink | undefined): Promise<Download> {
  if (link && store.downloadUrl) return { kind: 'link', url: await store.downloadUrl(key, link) };
  const bytes = await store.get(key);
  return bytes ? { kind: 'bytes', bytes } : { kind: 'missing' };
}

/** `at` plus `ms`, in the service's date format. */
export function later(at: string, ms: number): string {
  return formatTimestamp(new Date(Date.parse(`${at.slice(0, 23)}Z`) + ms));
}

const routers = new WeakMap<object, DocumentBlobs>();

/** The router for these ports, one per wiring (its opened stores are reused across calls). */
export function documentBlobs(deps: DocumentBlobDeps): DocumentBlobs {
  const owner = deps.buckets ?? deps.blobs;
  let router = routers.get(owner);
  if (!router) {
    router = new DocumentBlobs(deps);
    routers.set(owner, router);
  }
  return router;
}
