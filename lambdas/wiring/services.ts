import { BucketService } from '../core/bucket/bucket-service.js';
import type { CaptureService } from '../core/capture.js';
import type { CosineScale } from '../core/chat/calibration.js';
import { ChatService } from '../core/chat/chat-service.js';
import type { DeferredVectors } from '../core/chat/memory-vectors.js';
import { DocumentService } from '../core/documents.js';
import { EndUserService } from '../core/end-users.js';
import { GenerationalIndex } from '../core/generations.js';
import { GrepService } from '../core/grep.js';
import type { IngestWorker } from '../core/ingest-worker.js';
import { KeyService } from '../core/keys.js';
import type {
  BlobStore,
  CallerBuckets,
  ChatModel,
  Clock,
  ConversationStore,
  DocumentStore,
  Embedder,
  IngestQueue,
  SearchIndex,
  TenantStore,
  TextExtractor,
  UsageLedger,
} from '../core/ports.js';
import { DocumentReader } from '../core/reading.js';
import { RememberedQueries } from '../core/remembered-queries.js';
import { SearchService } from '../core/search.js';
import type { UsageService } from '../core/usage.js';
import { buildCaptureServices } from './capture-services.js';

/** Every port the core needs, whichever stack provides them. */
export interface Ports {
  documents: DocumentStore;
  blobs: BlobStore;
  index: SearchIndex;
  embedder: Embedder;
  extractor: TextExtractor;
  tenants: TenantStore;
  clock: Clock;
  chatModel: ChatModel;
  usage: UsageLedger;
  /** The conversations' recent turns (a chat's follow-ups). */
  conversations: ConversationStore;
  /** The durable queue of background indexing (extraction, embedding). */
  queue: IngestQueue;
  /** Callers' own buckets (API.md "Caller-owned bucket"); absent: every blob is the service's. */
  buckets?: CallerBuckets;
  /** Where present (the local stack), a chat answers before its reply is embedded. */
  deferVectors?: DeferredVectors;
  /** The embedder's cosine scale, recorded with it (core/chat/calibration.ts). */
  cosineScale?: () => Promise<CosineScale | undefined>;
}

export interface Services {
  capture: CaptureService;
  search: SearchService;
  grep: GrepService;
  documents: DocumentService;
  /** Reading a document back: its lines, its file. */
  reading: DocumentReader;
  endUsers: EndUserService;
  keys: KeyService;
  embedder: Embedder;
  chat: ChatService;
  usage: UsageService;
  /** The ingestion worker's use case (extract, embed, settle), driven by each stack's drain. */
  worker: IngestWorker;
  /** The caller-owned bucket; absent where the stack wires no bucket ports. */
  buckets?: BucketService;
}

export function buildServices(ports: Ports, options: { extractInlineWhenIdle?: boolean } = {}): Services {
  // Every accepted capture is charged to its tenant.
  const { capture, usage, worker } = buildCaptureServices(ports, ports.queue, options);
  // Searches and chats embed a library's query text once while it is remembered (a search's next pages).
  const rememberedQueries = new RememberedQueries();
  return {
    capture,
    // A search's query embedding is charged to its tenant.
    search: new SearchService({ ...ports, rememberedQueries, spend: { usage, clock: ports.clock } }),
    grep: new GrepService(ports),
    documents: new DocumentService(ports),
    // Locally a file's bytes go through the service (no link: the folder store makes none).
    reading: new DocumentReader(ports),
    endUsers: new EndUserService(ports),
    keys: new KeyService(ports),
    embedder: ports.embedder,
    // A chat's memory lands in the library's current generation (core/generations.ts).
    chat: new ChatService({
      ...ports,
      index: new GenerationalIndex(ports.index, ports.documents, ports.clock),
      usage,
      rememberedQueries,
    }),
    usage,
    worker,
    ...(ports.buckets
      ? { buckets: new BucketService({ buckets: ports.buckets, blobs: ports.blobs, clock: ports.clock }) }
      : {}),
  };
}
