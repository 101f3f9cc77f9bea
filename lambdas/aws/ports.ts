import { BedrockChat } from '../adapters/aws/bedrock-chat.js';
import { BedrockEmbedder } from '../adapters/aws/bedrock-embedder.js';
import { ReportedTokenCounter } from '../adapters/aws/reported-token-counter.js';
import { DynamoDocumentStore } from '../adapters/aws/dynamo-document-store.js';
import { DynamoTenantStore } from '../adapters/aws/dynamo-tenant-store.js';
import { DynamoUsageLedger } from '../adapters/aws/dynamo-usage-ledger.js';
import { OpenSearchSearchIndex, type OpenSearchTransport } from '../adapters/aws/opensearch-search-index.js';
import { S3BlobStore } from '../adapters/aws/s3-blob-store.js';
import { systemClock } from '../core/dates.js';
import type { Ports } from '../core/services.js';
import type { TextExtractor } from '../ports.js';
import type { AwsClients } from './clients.js';
import type { AwsConfig } from './config.js';

/**
 * Every port on its AWS adapter. The extractor is the caller's choice: the API
 * functions read text formats inline, the ingest function runs the full
 * pipeline (so native modules stay out of the API bundles).
 */
export function buildAwsPorts(config: AwsConfig, clients: AwsClients, extractor: TextExtractor): Ports {
  // Spend counts the tokens Titan itself reports for each text it embeds.
  const tokens = new ReportedTokenCounter();
  const embedder = new BedrockEmbedder(clients.bedrock, {
    modelId: config.embedding.modelId,
    dimensions: config.embedding.dimensions,
    onTokens: (text, count) => tokens.record(text, count),
  });
  return {
    documents: new DynamoDocumentStore(clients.dynamo, config.tables.documents),
    blobs: new S3BlobStore(clients.s3, config.blobBucket),
    index: new OpenSearchSearchIndex(clients.openSearch.transport as unknown as OpenSearchTransport, {
      prefix: config.search.indexPrefix,
      dimensions: config.embedding.dimensions,
    }),
    embedder,
    tokens,
    extractor,
    tenants: new DynamoTenantStore(clients.dynamo, config.tables.tenants),
    clock: systemClock(),
    chatModel: new BedrockChat(clients.bedrock, { modelId: config.chatModelId }),
    usage: new DynamoUsageLedger(clients.dynamo, config.tables.usage),
  };
}
