import type { CaptureService } from '../../core/capture.js';
import { buildCaptureServices, type CapturePorts } from '../../core/capture-services.js';
import type { IngestService, IngestSettings } from '../../core/ingest.js';
import type { Ports } from '../../core/services.js';

/**
 * What the Lambda entries share to build their services. Each entry
 * (lambdas/endpoints/<route>/index.ts, ingest-worker/, sweeper/) makes the
 * core's services it calls on only the ports its use case needs, from the
 * per-client factories (dynamo.ts, s3.ts, opensearch.ts, bedrock.ts, sqs.ts,
 * textract.ts; capture-ports.ts gathers capture's), so esbuild leaves every
 * other SDK client, adapter and use case out of its bundle.
 * lib/route-access.ts grants each function the same ports.
 */

/**
 * Capture and the queued ingest, composed by the core exactly as the local
 * stack's buildServices composes them (every accepted capture is charged),
 * without the other use cases (chat alone weighs more than the margin
 * capture has under 1 MB).
 */
export function captureWithIngest(ports: CapturePorts, settings: IngestSettings): { capture: CaptureService; ingest: IngestService } {
  const { capture, ingest } = buildCaptureServices(ports, { ingest: settings });
  return { capture, ingest: ingest! };
}

export class UnwiredPortError extends Error {
  constructor(readonly port: string) {
    super(`the ${port} port is not wired in this function: wire it in its index.ts and grant it in lib/route-access.ts`);
    this.name = 'UnwiredPortError';
  }
}

/**
 * A stand-in for a port a service's constructor asks for but this function's
 * use case never calls (document-get's DocumentService has no use for the
 * search index): any use of it throws UnwiredPortError, naming the port.
 */
export function unwired<T extends object>(port: keyof Ports | 'ingestQueue'): T {
  return new Proxy({} as T, {
    get(_target, member) {
      // Not a use of the port: promise checks and inspection.
      if (typeof member === 'symbol' || member === 'then' || member === 'toJSON') return undefined;
      throw new UnwiredPortError(port);
    },
  });
}
