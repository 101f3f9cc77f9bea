import { ChatService } from '../../core/chat/chat-service.js';
import { systemClock } from '../../core/dates.js';
import { GenerationalIndex } from '../../core/generations.js';
import { UsageService } from '../../core/usage.js';
import { chatModel, embedder, rememberedQueries } from '../../wiring/aws/bedrock.js';
import { embeddingScale } from '../../wiring/aws/config.js';
import { conversationStore, documentStore, usageLedger } from '../../wiring/aws/dynamo.js';
import { withEndUserLogKey } from '../../wiring/aws/end-user-log-key.js';
import { instrumented, meteredUsage, publishStoredMetrics } from '../../wiring/aws/observability.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { streamingHandler } from '../../wiring/aws/response-streaming.js';
import { createHandler } from './handler.js';

/**
 * Lambda entry: retrieval (index, embedder), the chat model, the exchange
 * remembered in the library and its conversation, tokens charged (and
 * counted as metrics). A streaming function (the route's integration
 * streams, lib/constructs/library-api.ts): a JSON answer is written whole, a
 * streamed one (Accept: text/event-stream) event by event; the metrics a
 * stream recorded are published once it has ended.
 */
const clock = systemClock();
const scale = embeddingScale();
export const handler = streamingHandler(
  instrumented(
    withEndUserLogKey(
      createHandler({
        chat: new ChatService({
          // A chat's memory lands in the library's current generation (core/generations.ts).
          index: new GenerationalIndex(searchIndex(), documentStore(), clock),
          embedder: embedder(),
          rememberedQueries: rememberedQueries(),
          documents: documentStore(),
          chatModel: chatModel(),
          clock,
          usage: new UsageService({ usage: meteredUsage(usageLedger()), clock }),
          conversations: conversationStore(),
          // Measured when the stack was deployed (workers/aws-embedder-scale).
          cosineScale: async () => scale,
        }),
      }),
    ),
  ),
  { afterStream: publishStoredMetrics },
);
