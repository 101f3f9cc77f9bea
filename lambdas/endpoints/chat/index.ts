import { chatModel, embedder } from '../../aws/bedrock.js';
import { documentStore, usageLedger } from '../../aws/dynamo.js';
import { searchIndex } from '../../aws/opensearch.js';
import { awsServices } from '../../aws/services.js';
import { createHandler } from './handler.js';

/** Lambda entry: retrieval (index, embedder), the chat model, the exchange remembered in the library, tokens charged. */
export const handler = createHandler(
  awsServices({ documents: documentStore(), index: searchIndex(), embedder: embedder(), chatModel: chatModel(), usage: usageLedger() }),
);
