import { join } from 'node:path';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { S3BucketConnector } from '../../adapters/caller-bucket/connector.js';
import { StsRoleCredentials } from '../../adapters/caller-bucket/role-credentials.js';
import { IsolatedExtractor } from '../../adapters/extraction/isolation/isolated-extractor.js';
import {
  AesSecretCipher,
  deriveFromSecretsKey,
  END_USER_LOG_KEY_PURPOSE,
  loadSecretsKey,
} from '../../adapters/local/aes-secret-cipher.js';
import { openDatabase, type SqliteDatabase } from '../../adapters/local/database.js';
import { readEmbedderRecord } from '../../adapters/local/embedder-record.js';
import { DEFAULT_EXTRACTIVE, ExtractiveAnswerer } from '../../adapters/local/extractive-answerer.js';
import { FolderBlobStore } from '../../adapters/local/folder-blob-store.js';
import { InProcessBackgroundWork } from '../../adapters/local/in-process-background-work.js';
import { MachineBucketPrincipal } from '../../adapters/local/machine-bucket-principal.js';
import { OpenAiCompatibleChat, type OpenAiCompatibleConfig } from '../../adapters/local/openai-compatible-chat.js';
import type { OpenAiEmbedderConfig } from '../../adapters/local/openai-compatible-embedder.js';
import { SearchThreads } from '../../adapters/local/search-thread.js';
import { SqliteBucketRegistrations } from '../../adapters/local/sqlite-bucket-registrations.js';
import { SqliteConversationStore } from '../../adapters/local/sqlite-conversation-store.js';
import { SqliteDocumentStore } from '../../adapters/local/sqlite-document-store.js';
import { SqliteIngestQueue } from '../../adapters/local/sqlite-ingest-queue.js';
import { SqlitePendingBucketDeletes } from '../../adapters/local/sqlite-pending-bucket-deletes.js';
import { SqliteSearchIndex } from '../../adapters/local/sqlite-search-index.js';
import { SqliteTenantStore } from '../../adapters/local/sqlite-tenant-store.js';
import { SqliteUsageLedger } from '../../adapters/local/sqlite-usage-ledger.js';
import { TesseractOcr } from '../../adapters/local/tesseract-ocr.js';
import { BucketDeleteRetry } from '../../core/bucket/delete-retry.js';
import { documentBlobs } from '../../core/bucket/document-blobs.js';
import { attachMissingVectors } from '../../core/chat/memory-vectors.js';
import { systemClock } from '../../core/dates.js';
import type { BlobStore, CallerBuckets, ChatModel, Clock, Embedder } from '../../core/ports.js';
import { logger, useEndUserLogKey } from '../../http/observability.js';
import { buildServices, type Ports, type Services } from '../services.js';
import { LocalBucketDeleteTimer } from './bucket-delete-timer.js';
import { recordedCosineScale } from './cosine-scale.js';
import { startLocalEmbedder } from './embedder.js';
import { type DrainOptions, LocalIngestDrain } from './ingest-drain.js';
import { ORPHAN_AGE_MS, sweepOrphanBlobs } from './orphan-blobs.js';

/** The caller-owned bucket on the local stack (docs/bucket.md, "Local stack"), read from the environment by bin/config.ts. */
export interface LocalBucketOptions {
  /** LIBRARY_ALLOW_PRIVATE_ENDPOINTS=1: endpoints on loopback/private addresses, and http to loopback (tests). */
  allowPrivateEndpoints?: boolean;
  /** LIBRARY_SECRETS_KEY: base64 of 32 bytes; absent: a key file made in the data folder. */
  secretsKey?: string;
  /**
   * LIBRARY_BUCKET_PRINCIPAL_ARN: the principal trust policies name; absent:
   * the identity this machine's AWS credentials resolve to, if any, else none
   * (no role registration). See MachineBucketPrincipal.
   */
  principalArn?: string | null;
  /** Region of the STS calls for role registrations (AWS_REGION); default us-east-1. */
  stsRegion?: string;
  /** How often deletes owed to buckets are retried; default one minute. */
  retryIntervalMs?: number;
}

/**
 * The bucket ports over the same SQLite file. Roles go through the machine's
 * own AWS credentials: one default chain, read lazily (nothing is asked of
 * AWS at start), signs role sessions and names the principal, so the
 * principal is the identity that actually calls AssumeRole. The instance
 * metadata service is the chain's last resort (1 s, no retry); it is reached
 * only when nothing before it (environment, SSO, ~/.aws, credential_process,
 * web identity) had credentials, and for the principal once per process (a
 * machine without credentials names none, so no role session is asked for).
 */
function localBuckets(db: SqliteDatabase, secretsKey: Buffer, options: LocalBucketOptions): CallerBuckets {
  const region = options.stsRegion ?? 'us-east-1';
  const machine = defaultProvider({ timeout: 1_000, maxRetries: 0 });
  const roleCredentials = new StsRoleCredentials({ region, caller: machine });
  const principal = new MachineBucketPrincipal({
    configuredArn: options.principalArn ?? null,
    credentials: machine,
    region,
    log: (message, detail) => logger.info(message, detail),
  });
  return {
    registrations: new SqliteBucketRegistrations(db),
    pendingDeletes: new SqlitePendingBucketDeletes(db),
    cipher: new AesSecretCipher(secretsKey),
    connector: new S3BucketConnector({
      allowPrivateEndpoints: options.allowPrivateEndpoints === true,
      roleCredentials,
      // The caller reads a generic refusal; the operator's log keeps what was refused and why.
      onForbiddenEndpoint: (refusal) => logger.warn('bucket endpoint refused by the address guard', { ...refusal }),
    }),
    principal,
    allowPrivateEndpoints: options.allowPrivateEndpoints === true,
  };
}

function bucketDeleteTimer(
  buckets: CallerBuckets,
  blobs: BlobStore,
  clock: Clock,
  options: LocalBucketOptions,
): LocalBucketDeleteTimer {
  const retry = new BucketDeleteRetry({ buckets, blobs: documentBlobs({ blobs, buckets, clock }), clock });
  return new LocalBucketDeleteTimer(retry, options.retryIntervalMs ?? 60_000, (message, detail) =>
    logger.warn(message, detail),
  );
}

export interface LocalStack {
  ports: Ports;
  services: Services;
  db: SqliteDatabase;
  queue: SqliteIngestQueue;
  drain: LocalIngestDrain;
  /** Retries deletes owed to callers' buckets (sweep() retries at once). */
  bucketDeletes: LocalBucketDeleteTimer;
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
  buckets?: LocalBucketOptions;
  /** Start a file reader thread now, so the first file capture does not wait for one (the server; tests start them on demand). */
  warmReaders?: boolean;
  /** The memory the libraries' vector scans may hold (bytes; the search index's default when absent). */
  vectorCacheBytes?: number;
  /**
   * Run each leg of every search in a thread of its own (the server: a slow search must not stall its
   * other requests); one-shot commands and tests of the stack alone run them where they are called.
   */
  searchThreads?: boolean;
}): Promise<LocalStack> {
  const db = openDatabase(join(options.dataDir, 'library.db'));
  // The embedder is ours to stop only when we started it.
  const own = options.embedder ? null : await startLocalEmbedder(options.embed, readEmbedderRecord(db).current);
  const embedder = options.embedder ?? own!.embedder;
  // One OCR worker pool per process, shared by every capture.
  const ocr = new TesseractOcr();
  // Caller bytes are read in reader threads within time and memory limits, never on the server's thread.
  const extractor = new IsolatedExtractor({
    mode: 'full',
    ocr,
    threads: { request: 2, background: 2 },
    log: (message, detail) => logger.warn(message, detail),
  });
  if (options.warmReaders) extractor.warm();
  const background = new InProcessBackgroundWork((what, error) =>
    logger.error(`background work failed: ${what}`, { error }),
  );
  let index: SqliteSearchIndex;
  let threads: SearchThreads | undefined;
  try {
    const { vectorCacheBytes } = options;
    threads = options.searchThreads
      ? await SearchThreads.start({ file: db.name, dimensions: embedder.dimensions, vectorCacheBytes })
      : undefined;
    // Refuses a data folder whose vectors another embedder made (`library reindex` re-embeds it).
    index = new SqliteSearchIndex(db, embedder.dimensions, embedder.name, { vectorCacheBytes, legs: threads });
  } catch (error) {
    void threads?.close();
    void own?.close();
    void extractor.close();
    void ocr.close();
    db.close();
    throw error;
  }
  const queue = new SqliteIngestQueue(db);
  const blobs = new FolderBlobStore(join(options.dataDir, 'blobs'));
  // One secret for the data folder: it seals bucket secrets, and the key that names end users in logs is derived from it.
  const secretsKey = loadSecretsKey(options.dataDir, options.buckets?.secretsKey);
  useEndUserLogKey(deriveFromSecretsKey(secretsKey, END_USER_LOG_KEY_PURPOSE));
  const buckets = localBuckets(db, secretsKey, options.buckets ?? {});
  const clock = systemClock();
  const documents = new SqliteDocumentStore(db);
  const ports: Ports = {
    documents,
    blobs,
    index,
    embedder,
    extractor,
    tenants: new SqliteTenantStore(db),
    clock,
    buckets,
    // The offline answerer's tokens are counted by the offline model's tokenizer where it runs, else with o200k_base.
    chatModel:
      options.chatModel ??
      (options.chat
        ? new OpenAiCompatibleChat(options.chat, { log: (message, detail) => logger.warn(message, detail) })
        : new ExtractiveAnswerer(DEFAULT_EXTRACTIVE, own?.pool ?? undefined)),
    usage: new SqliteUsageLedger(db),
    conversations: new SqliteConversationStore(db),
    queue,
    deferVectors: { index, background },
    cosineScale: recordedCosineScale(db, embedder, (message, detail) => logger.warn(message, detail)),
  };
  // The full extractor runs in this process: a single capture on an idle machine is read in its request.
  const services = buildServices(ports, { extractInlineWhenIdle: true });
  // A new embedder is calibrated now rather than at the first chat (once: the scale is recorded with it).
  void background.run('embedder calibration', async () => {
    await ports.cosineScale?.();
  });
  const drain = new LocalIngestDrain(queue, services.worker, ports.documents, {
    lanes: own?.lanes ?? 2, // a given embedder (tests): two steps at once
    log: (message, detail) => logger.warn(message, detail),
    ...options.drain,
  });
  // Resumes the queue a stop or a crash left, and rolls back captures cut off before their receipt.
  await drain.start();
  const bucketDeletes = bucketDeleteTimer(buckets, blobs, clock, options.buckets ?? {});
  bucketDeletes.start();
  // Blob files a crash left without a record go once they are old enough to be no capture's in flight.
  const orphanSweep = setTimeout(() => {
    void background.run('orphan blob files', async () => {
      const removed = await sweepOrphanBlobs(blobs, documents);
      if (removed) logger.warn('removed blob files no document names (left by a crash)', { files: removed });
    });
  }, ORPHAN_AGE_MS);
  orphanSweep.unref();
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
  return {
    ports,
    services,
    db,
    queue,
    drain,
    bucketDeletes,
    dependencies,
    settled: async () => {
      await Promise.all([background.settled(), drain.whenIdle()]);
    },
    close: () => {
      drain.stop();
      bucketDeletes.stop();
      clearTimeout(orphanSweep);
      background.close();
      void extractor.close();
      void ocr.close();
      void own?.close();
      void index.close();
      db.close();
    },
  };
}
