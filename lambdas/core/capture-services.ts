import type { IngestQueue } from '../ports.js';
import { CaptureService } from './capture.js';
import { IngestWorker } from './ingest-worker.js';
import type { Ports } from './services.js';
import { UsageService } from './usage.js';

/** The ports capturing needs: a subset of every port, so a capture Lambda wires only these. */
export type CapturePorts = Pick<Ports, 'documents' | 'blobs' | 'index' | 'embedder' | 'extractor' | 'clock' | 'usage' | 'buckets'>;

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
