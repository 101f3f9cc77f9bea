import { CaptureService } from '../core/capture.js';
import { IngestWorker } from '../core/ingest-worker.js';
import type {
  BlobStore,
  CallerBuckets,
  Clock,
  DocumentStore,
  Embedder,
  IngestQueue,
  SearchIndex,
  TextExtractor,
  UsageLedger,
} from '../core/ports.js';
import { UsageService } from '../core/usage.js';

/** The ports capturing needs: a subset of every port, so a capture Lambda wires only these. */
export interface CapturePorts {
  documents: DocumentStore;
  blobs: BlobStore;
  index: SearchIndex;
  embedder: Embedder;
  extractor: TextExtractor;
  clock: Clock;
  usage: UsageLedger;
  buckets?: CallerBuckets;
}

/**
 * Capture, the ingestion worker and spend, composed once: every capture,
 * finished in its request or by the worker, is charged to its tenant. Its
 * own module, free of the other use cases, so a capture Lambda bundles only
 * what capturing needs.
 */
export function buildCaptureServices(
  ports: CapturePorts,
  queue: IngestQueue,
  options: { extractInlineWhenIdle?: boolean } = {},
): { capture: CaptureService; worker: IngestWorker; usage: UsageService } {
  const usage = new UsageService(ports);
  const deps = { ...ports, spend: usage };
  return { capture: new CaptureService({ ...deps, queue, ...options }), worker: new IngestWorker(deps), usage };
}
