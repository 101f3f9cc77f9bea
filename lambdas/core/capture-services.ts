import { CaptureService, type CaptureDeps } from './capture.js';
import { IngestService, type IngestSettings } from './ingest.js';
import type { Ports } from './services.js';
import { UsageService } from './usage.js';

/** The ports capturing needs: a subset of every port, so a capture Lambda wires only these. */
export type CapturePorts = Pick<Ports, 'documents' | 'blobs' | 'index' | 'embedder' | 'extractor' | 'clock' | 'usage' | 'tokens'>;

/**
 * Capture, the queued ingest (when settings are given) and spend, composed
 * once: every accepted capture, inline or finished by the ingest worker, is
 * charged to its tenant. Its own module, free of the other use cases, so a
 * capture Lambda bundles only what capturing needs.
 */
export function buildCaptureServices(
  ports: CapturePorts,
  options: { ingest?: IngestSettings } = {},
): { capture: CaptureService; usage: UsageService; ingest?: IngestService } {
  const usage = new UsageService(ports);
  const onCaptured: CaptureDeps['onCaptured'] = (event) => usage.recordCapture(event);
  const ingest = options.ingest ? new IngestService({ ...ports, onCaptured }, options.ingest) : undefined;
  return { capture: new CaptureService({ ...ports, onCaptured, ingest }), usage, ...(ingest ? { ingest } : {}) };
}
