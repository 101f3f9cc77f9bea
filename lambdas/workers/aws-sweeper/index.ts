import { BucketDeleteRetry } from '../../core/bucket/delete-retry.js';
import { documentBlobs } from '../../core/bucket/document-blobs.js';
import { systemClock } from '../../core/dates.js';
import { IngestWorker } from '../../core/ingest-worker.js';
import { withInvocationLog } from '../../http/observability.js';
import { callerBuckets } from '../../wiring/aws/buckets.js';
import { ENV, readWholeNumber } from '../../wiring/aws/config.js';
import { documentStore } from '../../wiring/aws/dynamo.js';
import { instrumented, observeAbandoned } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry of the sweeper (EventBridge schedule): settles `failed` what
 * was left `processing` (its index entries removed, its record and bytes
 * kept so the reason can be read). It reads no bytes, extracts, embeds,
 * charges and enqueues nothing, so those ports are unwired. Each document it
 * settles is counted (DocumentsAbandoned, alarmed). It also retries the
 * deletes owed to callers' buckets, reaching them as capture does
 * (buckets.ts); the service's own blobs are never read or deleted here.
 */
const staleAfterSeconds = readWholeNumber(ENV.staleAfterSeconds, { min: 60 });
const worker = observeAbandoned(
  new IngestWorker({
    documents: documentStore(),
    index: searchIndex(),
    clock: systemClock(),
    blobs: unwired('blobs'),
    embedder: unwired('embedder'),
    extractor: unwired('extractor'),
    spend: unwired('spend'),
  }),
);

const buckets = callerBuckets();
const bucketDeletes = new BucketDeleteRetry({
  buckets,
  blobs: documentBlobs({ blobs: unwired('blobs'), buckets }),
  clock: systemClock(),
});

export const handler = instrumented(
  withInvocationLog(createHandler({ documents: documentStore(), worker, staleAfterSeconds, bucketDeletes })),
);
