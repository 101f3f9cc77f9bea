import { readAwsConfig } from '../../wiring/aws/config.js';
import { createHandler } from './handler.js';
import { instrumented } from '../../wiring/aws/observability.js';

const config = readAwsConfig();

/** Lambda entry: health reads only the configuration (no client, no dependency call). */
export const handler = instrumented(createHandler({
  backend: 'aws',
  version: config.version,
  embedder: { name: config.embedding.modelId, dimensions: config.embedding.dimensions },
}));
