import { chatModel, embedder } from '../../wiring/aws/bedrock.js';
import { documentStore, usageLedger } from '../../wiring/aws/dynamo.js';
import { searchIndex } from '../../wiring/aws/opensearch.js';
import { tokenCounter } from '../../wiring/aws/tokens.js';
import { ChatService } from '../../core/chat/chat-service.js';
import { systemClock } from '../../core/dates.js';
import { UsageService } from '../../core/usage.js';
import { createHandler } from './handler.js';

/** Lambda entry: retrieval (index, embedder), the chat model, the exchange remembered in the library, tokens charged. */
const clock = systemClock();
const tokens = tokenCounter();
export const handler = createHandler({
  chat: new ChatService({
    index: searchIndex(), embedder: embedder(), documents: documentStore(), chatModel: chatModel(), clock, tokens,
    usage: new UsageService({ usage: usageLedger(), clock, tokens }),
  }),
});
