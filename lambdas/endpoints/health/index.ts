import { authorizerKeys } from '../../wiring/aws/authorizer.js';
import { readAwsConfig } from '../../wiring/aws/config.js';
import { instrumented } from '../../wiring/aws/observability.js';
import { createHandler } from './handler.js';

const config = readAwsConfig();

/**
 * Lambda entry: health reads only the configuration, and answers an
 * anonymous call without any client or dependency call. A call that sends a
 * key (the route has no authorizer) has it checked against the tenants table
 * as the authorizer does, one GetItem; the client is made on the first such
 * call only.
 */
export const handler = instrumented(
  createHandler({
    backend: 'aws',
    version: config.version,
    embedder: { name: config.embedding.modelId, dimensions: config.embedding.dimensions },
    keys: { authenticate: (key) => authorizerKeys().authenticate(key) },
  }),
);
