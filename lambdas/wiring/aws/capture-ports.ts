import { systemClock } from '../../core/dates.js';
import type { TextExtractor } from '../../core/ports.js';
import type { CapturePorts } from '../capture-services.js';
import { embedder } from './bedrock.js';
import { callerBuckets } from './buckets.js';
import { documentStore, usageLedger } from './dynamo.js';
import { meteredUsage } from './observability.js';
import { searchIndex } from './opensearch.js';
import { blobStore } from './s3.js';

/**
 * The ports capture and the queued ingest run on, from this function's
 * clients, with the extractor the function brings: text formats read inline
 * (capture, capture-batch) or the full pipeline (the ingest worker), and
 * the tenant's own bucket where one is registered (buckets.ts). What
 * the ledger records (tokens, OCR pages) is counted as metrics too.
 */
export function awsCapturePorts(extractor: TextExtractor): CapturePorts {
  return {
    documents: documentStore(),
    blobs: blobStore(),
    index: searchIndex(),
    embedder: embedder(),
    extractor,
    clock: systemClock(),
    usage: meteredUsage(usageLedger()),
    buckets: callerBuckets(),
  };
}
