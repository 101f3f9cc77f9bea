import { BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { BedrockChat } from '../../adapters/aws/bedrock-chat.js';
import { BedrockEmbedder } from '../../adapters/aws/bedrock-embedder.js';
import { awsConfig } from './config.js';
import { tracer } from './observability.js';
import { sdkOptions } from './sdk.js';
import { tokenCounter } from './tokens.js';

/** The Bedrock ports (embedder, chat model), on one client made on the first call. */
let client: BedrockRuntimeClient | undefined;
let embedderPort: BedrockEmbedder | undefined;
let chat: BedrockChat | undefined;

function bedrockClient(): BedrockRuntimeClient {
  return (client ??= tracer.captureAWSv3Client(new BedrockRuntimeClient(sdkOptions())));
}

/** Titan Text Embeddings; spend counts the tokens Titan reports for each text it embeds (tokens.ts). */
export function embedder(): BedrockEmbedder {
  const { modelId, dimensions } = awsConfig().embedding;
  const tokens = tokenCounter();
  return (embedderPort ??= new BedrockEmbedder(bedrockClient(), { modelId, dimensions, onTokens: (text, count) => tokens.record(text, count) }));
}

export function chatModel(): BedrockChat {
  return (chat ??= new BedrockChat(bedrockClient(), { modelId: awsConfig().chatModelId }));
}
