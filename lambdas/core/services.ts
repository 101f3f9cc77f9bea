import type {
  BlobStore, ChatModel, Clock, DocumentStore, Embedder, SearchIndex, TenantStore, TextExtractor, TokenCounter, UsageLedger,
} from '../ports.js';
import type { CaptureService } from './capture.js';
import { buildCaptureServices } from './capture-services.js';
import { ChatService } from './chat/chat-service.js';
import type { DeferredVectors } from './chat/memory-vectors.js';
import { DocumentService } from './documents.js';
import { EndUserService } from './end-users.js';
import { GrepService } from './grep.js';
import type { IngestService, IngestSettings } from './ingest.js';
import { KeyService } from './keys.js';
import { SearchService } from './search.js';
import type { UsageService } from './usage.js';

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
  /** Counts embedding tokens for spend: a tokenizer locally, the model's own reports on AWS. */
  tokens: TokenCounter;
  /** Where present (the local stack), a chat answers before its reply is embedded. */
  deferVectors?: DeferredVectors;
}

export interface Services {
  capture: CaptureService;
  search: SearchService;
  grep: GrepService;
  documents: DocumentService;
  endUsers: EndUserService;
  keys: KeyService;
  embedder: Embedder;
  chat: ChatService;
  usage: UsageService;
  /** The queued ingest's use cases; present only when an ingest queue was given (AWS). */
  ingest?: IngestService;
}

export function buildServices(
  ports: Ports,
  options: { ingest?: IngestSettings } = {},
): Services {
  // Every accepted capture is charged to its tenant.
  const { capture, usage, ingest } = buildCaptureServices(ports, options);
  return {
    capture,
    search: new SearchService(ports),
    grep: new GrepService(ports),
    documents: new DocumentService(ports),
    endUsers: new EndUserService(ports),
    keys: new KeyService(ports),
    embedder: ports.embedder,
    chat: new ChatService({ ...ports, usage }),
    usage,
    ...(ingest ? { ingest } : {}),
  };
}
