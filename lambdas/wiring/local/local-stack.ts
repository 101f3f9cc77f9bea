import { join } from 'node:path';
import { openDatabase, type SqliteDatabase } from '../../adapters/local/database.js';
import { DEFAULT_EXTRACTIVE, ExtractiveAnswerer } from '../../adapters/local/extractive-answerer.js';
import { FolderBlobStore } from '../../adapters/local/folder-blob-store.js';
import { InProcessBackgroundWork } from '../../adapters/local/in-process-background-work.js';
import { OpenAiCompatibleChat, type OpenAiCompatibleConfig } from '../../adapters/local/openai-compatible-chat.js';
import type { OpenAiEmbedderConfig } from '../../adapters/local/openai-compatible-embedder.js';
import { readEmbedderRecord } from '../../adapters/local/embedder-record.js';
import { SqliteDocumentStore } from '../../adapters/local/sqlite-document-store.js';
import { SqliteSearchIndex } from '../../adapters/local/sqlite-search-index.js';
import { SqliteTenantStore } from '../../adapters/local/sqlite-tenant-store.js';
import { SqliteUsageLedger } from '../../adapters/local/sqlite-usage-ledger.js';
import { TesseractOcr } from '../../adapters/local/tesseract-ocr.js';
import { systemClock } from '../../core/dates.js';
import { attachMissingVectors } from '../../core/chat/memory-vectors.js';
import { SqliteIngestQueue } from '../../adapters/local/sqlite-ingest-queue.js';
import { LocalIngestDrain, type DrainOptions } from '../../workers/local-ingest/drain.js';
import { FileExtractor } from '../../adapters/extraction/extractor.js';
import { buildServices, type Ports, type Services } from '../../core/services.js';
import { logger } from '../../http/observability.js';
import type { ChatModel, Embedder } from '../../ports.js';
import { startLocalEmbedder } from './embedder.js';

export interface LocalStack {
  ports: Ports;
  services: Services;
  db: SqliteDatabase;
  queue: SqliteIngestQueue;
  drain: LocalIngestDrain;
  /** What health checks on every call: the stores this stack cannot serve without. */
  dependencies: Record<string, () => Promise<void>>;
  /** Resolves once the background work started so far (chat replies' vectors, queued indexing) is done. */
  settled(): Promise<void>;
  close(): void;
}

/** Wires the embedded adapters over one data folder: `library.db` (SQLite) and `blobs/`. */
export async function openLocalStack(options: {
  dataDir: string;
  /** Any embedder (tests); wins over `embed`. */
  embedder?: Embedder;
  /** An OpenAI-compatible embeddings server; absent: the offline embedder's worker threads. */
  embed?: OpenAiEmbedderConfig | null;
  /** An OpenAI-compatible chat model; absent: the offline extractive answerer. */
  chat?: OpenAiCompatibleConfig | null;
  /** Any chat model (tests); wins over `chat`. */
  chatModel?: ChatModel;
  /** The ingestion drain's settings (tests shorten its retries); lanes default to the embedder's (embedder.ts). */
  drain?: Partial<DrainOptions>;
}): Promise<LocalStack> {
  const db = openDatabase(join(options.dataDir, 'library.db'));
  // The embedder is ours to stop only when we started it.
  const own = options.embedder ? null : await startLocalEmbedder(options.embed, readEmbedderRecord(db).current);
  const embedder = options.embedder ?? own!.embedder;
  // One OCR worker pool per process, shared by every capture.
  const ocr = new TesseractOcr();
  const background = new InProcessBackgroundWork((what, error) => logger.error(`background work failed: ${what}`, { error }));
  let index: SqliteSearchIndex;
  try {
    // Refuses a data folder whose vectors another embedder made (`library reindex` re-embeds it).
    index = new SqliteSearchIndex(db, embedder.dimensions, embedder.name);
  } catch (error) {
    void own?.close();
    void ocr.close();
    db.close();
    throw error;
  }
  const queue = new SqliteIngestQueue(db);
  const blobs = new FolderBlobStore(join(options.dataDir, 'blobs'));
  const ports: Ports = {
    documents: new SqliteDocumentStore(db),
    blobs,
    index,
    embedder,
    extractor: new FileExtractor({ ocr }),
    tenants: new SqliteTenantStore(db),
    clock: systemClock(),
    // The offline answerer's tokens are counted by the offline model's tokenizer where it runs, else with o200k_base.
    chatModel: options.chatModel ?? (options.chat ? new OpenAiCompatibleChat(options.chat) : new ExtractiveAnswerer(DEFAULT_EXTRACTIVE, own?.pool ?? undefined)),
    usage: new SqliteUsageLedger(db),
    queue,
    deferVectors: { index, background },
  };
  // The full extractor runs in this process: a single capture on an idle machine is read in its request.
  const services = buildServices(ports, { extractInlineWhenIdle: true });
  const drain = new LocalIngestDrain(queue, services.worker, ports.documents, {
    lanes: own?.lanes ?? 2, // a given embedder (tests): two steps at once
    log: (message, detail) => logger.warn(message, detail),
    ...options.drain,
  });
  // Resumes the queue a stop or a crash left, and rolls back captures cut off before their receipt.
  await drain.start();
  // A chat answered just before a crash may lack its reply's vectors: embed
  // them, in the background so a failing embedder cannot stop the start.
  await background.run('vectors missing at start-up', async () => {
    await attachMissingVectors({ index, embedder, spend: services.usage, clock: ports.clock });
  });
  const dependencies = {
    database: async () => {
      db.prepare('SELECT count(*) FROM documents WHERE 0').get();
    },
    blobs: () => blobs.check(),
  };
  return { ports, services, db, queue, drain, dependencies, settled: async () => {
    await Promise.all([background.settled(), drain.whenIdle()]);
  }, close: () => {
    drain.stop();
    background.close();
    void ocr.close();
    void own?.close();
    db.close();
  } };
}
