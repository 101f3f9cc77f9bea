import { O200kTokenCounter } from '../../lambdas/adapters/local/o200k-tokens.js';
import { openDatabase } from '../../lambdas/adapters/local/database.js';
import { ExtractiveAnswerer } from '../../lambdas/adapters/local/extractive-answerer.js';
import { SqliteUsageLedger } from '../../lambdas/adapters/local/sqlite-usage-ledger.js';
import { SqliteSearchIndex } from '../../lambdas/adapters/local/sqlite-search-index.js';
import { SqliteTenantStore } from '../../lambdas/adapters/local/sqlite-tenant-store.js';
import { CaptureRejected } from '../../lambdas/core/errors.js';
import { systemClock } from '../../lambdas/core/dates.js';
import { buildServices, type Ports } from '../../lambdas/core/services.js';
import type { TextExtractor } from '../../lambdas/ports.js';
import { HashingEmbedder } from './hashing-embedder.js';
import { InMemoryBlobStore, InMemoryDocumentStore } from './in-memory-ports.js';

/** Decodes UTF-8 files; refuses `application/x-unsupported`. Enough to drive the core's bytes path. */
export const utf8Extractor: TextExtractor = {
  async extract({ bytes, declaredContentType }) {
    if (declaredContentType === 'application/x-unsupported') throw new CaptureRejected('unsupported_type', 'unsupported');
    return { text: Buffer.from(bytes).toString('utf8'), kind: 'file', contentType: declaredContentType, pageCount: null, ocrPages: 0 };
  },
};

/** The core over in-memory fakes (documents, blobs), the SQLite index in memory and a hashing embedder. */
export function coreHarness(overrides: Partial<Ports> = {}) {
  const db = openDatabase(':memory:');
  const embedder = new HashingEmbedder();
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
    tokens: new O200kTokenCounter(),
    ...overrides,
  };
  return { ports, services: buildServices(ports), db };
}
