import { systemClock } from '../core/dates.js';
import { buildServices, type Ports, type Services } from '../core/services.js';
import type { IngestSettings } from '../core/ingest.js';
import { tokenCounter } from './tokens.js';

/**
 * The core's services for one function, composed by the core's own
 * buildServices (so the rules that tie services together, such as charging
 * every accepted capture, stay in one place), on only the ports that
 * function's entry wires. Each entry imports just the factories it needs
 * (dynamo.ts, s3.ts, opensearch.ts, bedrock.ts, sqs.ts), so esbuild leaves
 * every other SDK client and adapter out of its bundle. The clock and the
 * token counter cost nothing and are always wired.
 *
 * A port the entry does not wire is `unwired`: the services that would use it
 * exist but any call to it throws, naming the port. lib/route-access.ts grants
 * the function no access to it either.
 */
export function awsServices(wired: Partial<Ports>, options: { ingest?: IngestSettings } = {}): Services {
  const ports: Ports = {
    documents: unwired('documents'),
    blobs: unwired('blobs'),
    index: unwired('index'),
    embedder: unwired('embedder'),
    extractor: unwired('extractor'),
    tenants: unwired('tenants'),
    chatModel: unwired('chatModel'),
    usage: unwired('usage'),
    clock: systemClock(),
    tokens: tokenCounter(),
    ...wired,
  };
  return buildServices(ports, options);
}

export class UnwiredPortError extends Error {
  constructor(readonly port: string) {
    super(`the ${port} port is not wired in this function: wire it in its index.ts (lambdas/aws/services.ts) and grant it in lib/route-access.ts`);
    this.name = 'UnwiredPortError';
  }
}

/** A stand-in for a port this function never uses: reading any of its members throws UnwiredPortError. */
export function unwired<T extends object>(port: keyof Ports | 'ingestQueue'): T {
  return new Proxy({} as T, {
    get(_target, member) {
      // Not a use of the port: promise checks and inspection.
      if (typeof member === 'symbol' || member === 'then' || member === 'toJSON') return undefined;
      throw new UnwiredPortError(port);
    },
  });
}
