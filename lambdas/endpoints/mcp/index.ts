import { ChatService } from '../../core/chat/chat-service.js';
import { systemClock } from '../../core/dates.js';
import { DocumentService } from '../../core/documents.js';
import { GenerationalIndex } from '../../core/generations.js';
import { GrepService } from '../../core/grep.js';
import type { TextExtractor } from '../../core/ports.js';
import { DocumentReader } from '../../core/reading.js';
import { SearchService } from '../../core/search.js';
import { chatModel, embedder, rememberedQueries } from '../../wiring/aws/bedrock.js';
import { callerBuckets } from '../../wiring/aws/buckets.js';
import { awsCapturePorts } from '../../wiring/aws/capture-ports.js';
import { embeddingScale, readAwsConfig } from '../../wiring/aws/config.js';
import { conversationStore, documentStore } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { countCapture, instrumented } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { blobStore } from '../../wiring/aws/s3.js';
import { ingestQueue } from '../../wiring/aws/sqs.js';
import { unwired } from '../../wiring/aws/unwired-port.js';
import { buildCaptureServices } from '../../wiring/capture-services.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: the MCP server, its tools over the use cases of the routes
 * they stand for: search and grep (index, embedder), ask (chat: the chat
 * model, the exchange remembered, tokens charged), remember (a text capture,
 * queued for the ingest function when large; no file is read here, so no
 * extractor), list and read documents, forget (delete everywhere, the
 * caller's bucket included). Receipts are counted as metrics, as the capture routes count theirs.
 */
const clock = systemClock();
const scale = embeddingScale();
// remember takes text only: a text push never reaches the extractor.
const ports = awsCapturePorts(unwired<TextExtractor>('extractor'));
const { capture, usage } = buildCaptureServices(ports, ingestQueue());
export const handler = instrumented(
  withEndUserLogKey(
    createHandler({
      version: readAwsConfig().version,
      onReceipt: countCapture,
      search: new SearchService({
        index: searchIndex(),
        embedder: embedder(),
        rememberedQueries: rememberedQueries(),
        documents: documentStore(),
        cosineScale: async () => scale,
        spend: { usage, clock },
      }),
      grep: new GrepService({ index: searchIndex(), documents: documentStore() }),
      chat: new ChatService({
        index: new GenerationalIndex(searchIndex(), documentStore(), clock),
        embedder: embedder(),
        rememberedQueries: rememberedQueries(),
        documents: documentStore(),
        chatModel: chatModel(),
        clock,
        usage,
        conversations: conversationStore(),
        cosineScale: async () => scale,
      }),
      capture,
      documents: new DocumentService({
        documents: documentStore(),
        index: searchIndex(),
        blobs: blobStore(),
        buckets: callerBuckets(),
      }),
      reading: new DocumentReader({ documents: documentStore(), index: searchIndex(), blobs: unwired('blobs') }),
    }),
  ),
);
