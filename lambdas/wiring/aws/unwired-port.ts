import type { Ports } from '../services.js';

/**
 * What the Lambda entries share to build their services. Each entry
 * (lambdas/endpoints/<route>/index.ts, workers/aws-ingest/, workers/aws-sweeper/)
 * makes the core's services it calls on only the ports its use case needs,
 * from the per-client factories (dynamo.ts, s3.ts, opensearch.ts, bedrock.ts,
 * sqs.ts, extractors.ts; capture-ports.ts gathers capture's). Capture and the
 * ingest worker are composed by the core's buildCaptureServices (every
 * accepted capture charged, as the local stack's buildServices does), so
 * esbuild leaves every other SDK client, adapter and use case out of the
 * bundle. Each function is granted the same ports: its route contract's
 * access (lib/route-access.ts for the workers).
 */

export class UnwiredPortError extends Error {
  constructor(readonly port: string) {
    super(
      `the ${port} port is not wired in this function: wire it in its index.ts and grant it in its contract's access (a worker's: lib/route-access.ts)`,
    );
    this.name = 'UnwiredPortError';
  }
}

/**
 * A stand-in for a port a service's constructor asks for but this function's
 * use case never calls (document-get's DocumentService has no use for the
 * search index): any use of it throws UnwiredPortError, naming the port.
 */
export function unwired<T extends object>(port: keyof Ports | 'ingestQueue' | 'spend'): T {
  return new Proxy({} as T, {
    get(_target, member) {
      // Not a use of the port: promise checks and inspection.
      if (typeof member === 'symbol' || member === 'then' || member === 'toJSON') return undefined;
      throw new UnwiredPortError(port);
    },
  });
}
