import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { OpenSearchSearchIndex } from '../../adapters/aws/opensearch-search-index.js';
import { createSignedTransport } from '../../adapters/aws/opensearch-transport.js';
import { awsConfig } from './config.js';

/** The search index on the service's OpenSearch domain, its signed transport made on the first call. */
let index: OpenSearchSearchIndex | undefined;

export function searchIndex(): OpenSearchSearchIndex {
  if (index) return index;
  const config = awsConfig();
  const transport = createSignedTransport({
    region: config.region,
    node: config.search.endpoint,
    credentials: defaultProvider(),
    requestTimeoutMs: 10_000,
    maxRetries: 2,
  });
  return (index = new OpenSearchSearchIndex(transport, {
    prefix: config.search.indexPrefix,
    dimensions: config.embedding.dimensions,
  }));
}
