import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { ExtractiveAnswerer } from '../../lambdas/adapters/local/extractive-answerer.js';
import { SqliteIngestQueue } from '../../lambdas/adapters/local/sqlite-ingest-queue.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { SqliteTenantStore } from '../../lambdas/adapters/local/sqlite-tenant-store.js';
import { SqliteUsageLedger } from '../../lambdas/adapters/local/sqlite-usage-ledger.js';
import { systemClock } from '../../lambdas/core/dates.js';
import { CaptureRejected } from '../../lambdas/core/errors.js';
import type { TextExtractor } from '../../lambdas/core/ports.js';
import { type DrainOptions, LocalIngestDrain } from '../../lambdas/wiring/local/ingest-drain.js';
import { buildServices, type Ports } from '../../lambdas/wiring/services.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { InMemoryBlobStore, InMemoryConversationStore, InMemoryDocumentStore } from './in-memory-ports.js';

/** Decodes UTF-8 files; refuses `application/x-unsupported`. Enough to drive the core's bytes path. */
export const utf8Extractor: TextExtractor = {
  // Files starting %SLOW are slow work (queued), as PDFs and images are.
  async isSlowWork(bytes) {
    return Buffer.from(bytes).toString('utf8').startsWith('%SLOW');
  },
  async extract({ bytes, declaredContentType }) {
    if (declaredContentType === 'application/x-unsupported')
      throw new CaptureRejected('unsupported_type', 'unsupported');
    return {
      text: Buffer.from(bytes).toString('utf8'),
      kind: 'file',
      contentType: declaredContentType,
      pageCount: null,
      ocrPages: 0,
    };
  },
};

/**
 * The core over in-memory fakes (documents, blobs), the SQLite index and
 * ingestion queue in memory, the local drain, and a hashing embedder.
 */
export function coreHarness(overrides: Partial<Ports> = {}, drainOptions: Partial<DrainOptions> = {}) {
  const db = openDatabase(':memory:');
  const embedder = new HashingEmbedder();
  const queue = new SqliteIngestQueue(db);
  const ports: Ports = {
    documents: new InMemoryDocumentStore(),
    blobs: new InMemoryBlobStore(),
    index: new SqliteSearchIndex(db, embedder.dimensions, embedder.name),
    embedder,
    extractor: utf8Extractor,
    tenants: new SqliteTenantStore(db),
    clock: systemClock(),
    chatModel: new ExtractiveAnswerer(),
    usage: new SqliteUsageLedger(db),
    conversations: new InMemoryConversationStore(),
    queue,
    ...overrides,
  };
  const services = buildServices(ports, { extractInlineWhenIdle: true });
  const drain = new LocalIngestDrain(queue, services.worker, ports.documents, {
    lanes: 2,
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 4 },
    ...drainOptions,
  });
  void drain.start();
  return { ports, services, db, queue, drain };
}
