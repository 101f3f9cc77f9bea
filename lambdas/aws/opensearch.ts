import { defaultProvider } from '@aws-sdk/credential-provider-node';
// The transport, not the Client: the Client only adds the generated API namespaces
// (about 200 KB minified) on top of this transport, and the adapter calls the transport alone.
import { AwsSigv4Signer } from '@opensearch-project/opensearch/aws-v3';
import { ConnectionPool } from '@opensearch-project/opensearch/lib/pool/index.js';
import SerializerExport from '@opensearch-project/opensearch/lib/Serializer.js';
import { OpenSearchSearchIndex, type OpenSearchTransport } from '../adapters/aws/opensearch-search-index.js';
import { awsConfig } from './config.js';

// lib/Serializer.js is `module.exports = Serializer`; its typings declare a default export instead.
const Serializer = SerializerExport as unknown as typeof SerializerExport.default;

export interface SignedTransportOptions {
  region: string;
  /** https://host of the domain (http:// only in tests). */
  node: string;
  credentials: ReturnType<typeof defaultProvider>;
  requestTimeoutMs?: number;
  maxRetries?: number;
}

/**
 * A SigV4-signed OpenSearch transport, assembled as `new Client(...)` assembles
 * its own (same signer, connection pool, serializer and defaults), without the
 * Client's API namespaces.
 */
export function createSignedTransport(options: SignedTransportOptions): OpenSearchTransport {
  const { Connection, Transport } = AwsSigv4Signer({
    region: options.region,
    service: 'es',
    getCredentials: () => options.credentials(),
  });
  const emit = () => false;
  const connectionPool = new ConnectionPool({ Connection, emit, sniffEnabled: false, resurrectStrategy: 'ping', pingTimeout: 3000 });
  connectionPool.addConnection(options.node);
  const transport = new Transport({
    emit,
    connectionPool,
    serializer: new Serializer({ disablePrototypePoisoningProtection: false, enableLongNumeralSupport: false }),
    maxRetries: options.maxRetries ?? 2,
    requestTimeout: options.requestTimeoutMs ?? 10_000,
    sniffEndpoint: '_nodes/_all/http',
    nodeSelector: 'round-robin',
    name: 'opensearch-js',
  });
  return transport as unknown as OpenSearchTransport;
}

/** The search index on the service's OpenSearch domain, its transport made on the first call. */
let index: OpenSearchSearchIndex | undefined;

export function searchIndex(): OpenSearchSearchIndex {
  if (index) return index;
  const config = awsConfig();
  const transport = createSignedTransport({ region: config.region, node: config.search.endpoint, credentials: defaultProvider() });
  return (index = new OpenSearchSearchIndex(transport, { prefix: config.search.indexPrefix, dimensions: config.embedding.dimensions }));
}
