import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockChat } from '../../adapters/aws/bedrock-chat.js';
import { BedrockEmbedder } from '../../adapters/aws/bedrock-embedder.js';
import { RememberedQueries } from '../../core/remembered-queries.js';
import { logger } from '../../http/observability.js';
import { awsConfig } from './config.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';

/** The Bedrock ports (embedder, chat model), on one client made on the first call. */
let client: BedrockRuntimeClient | undefined;
let embedderPort: BedrockEmbedder | undefined;
let queries: RememberedQueries | undefined;
let chat: BedrockChat | undefined;

function bedrockClient(): BedrockRuntimeClient {
  return (client ??= tracer.captureAWSv3Client(new BedrockRuntimeClient(sdkOptions())));
}

/** Titan Text Embeddings; each call reports the tokens Titan counted, which spend charges. */
export function embedder(): BedrockEmbedder {
  const { modelId, dimensions } = awsConfig().embedding;
  return (embedderPort ??= new BedrockEmbedder(bedrockClient(), { modelId, dimensions }));
}

/** The query vectors a warm container remembers, per library (core/remembered-queries.ts): a search's next pages call Titan once. */
export function rememberedQueries(): RememberedQueries {
  return (queries ??= new RememberedQueries());
}

export function chatModel(): BedrockChat {
  return (chat ??= new BedrockChat(bedrockClient(), {
    modelId: awsConfig().chatModelId,
    log: (message, detail) => logger.warn(message, detail),
  }));
}
