import { ConverseCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { parseCitedReply, systemPrompt, userPrompt } from '../../core/chat/prompt.js';
import { BackendUnavailableError } from '../../core/errors.js';
import type { ChatModel, ChatModelAnswer, ChatModelRequest } from '../../ports.js';
import { isTransientAwsError } from './errors.js';

export interface BedrockChatOptions {
  /** A Converse-capable model or inference profile id, e.g. anthropic.claude-3-5-haiku-20241022-v1:0. */
  modelId: string;
  maxTokens?: number;
}

const THROTTLE_NAMES = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'TooManyRequestsException']);

/**
 * The ChatModel port on Amazon Bedrock's Converse API. The system prompt
 * forbids answering beyond the supplied passages and asks for [n] citations
 * (core/chat/prompt.ts). Every failure (throttling, a transient fault, a
 * model that is not enabled) is BackendUnavailableError: 503 with Retry-After.
 */
export class BedrockChat implements ChatModel {
  readonly name: string;
  readonly judges = true;

  constructor(
    private readonly client: BedrockRuntimeClient,
    private readonly options: BedrockChatOptions,
  ) {
    this.name = `bedrock:${options.modelId}`;
  }

  async answer(request: ChatModelRequest): Promise<ChatModelAnswer> {
    const system = systemPrompt(request.itemize);
    const user = userPrompt(request);
    let output;
    try {
      output = await this.client.send(
        new ConverseCommand({
          modelId: this.options.modelId,
          system: [{ text: system }],
          messages: [{ role: 'user', content: [{ text: user }] }],
          inferenceConfig: { maxTokens: this.options.maxTokens ?? 800, temperature: 0 },
        }),
      );
    } catch (error) {
      const name = (error as Error)?.name ?? 'Error';
      const retryAfter = THROTTLE_NAMES.has(name) ? 5 : isTransientAwsError(error) ? 1 : 30;
      throw new BackendUnavailableError(`chat model: ${name}`, retryAfter, { cause: error });
    }
    const text = (output.output?.message?.content ?? []).map((block) => block.text ?? '').join('');
    const blocked = output.stopReason === 'guardrail_intervened' || output.stopReason === 'content_filtered';
    return {
      ...(blocked ? { reply: null, citations: [] } : parseCitedReply(text, request.passages.length)),
      usage: {
        // Converse always reports usage; Bedrock's count is the model's own tokenizer.
        promptTokens: output.usage?.inputTokens ?? 0,
        completionTokens: output.usage?.outputTokens ?? 0,
      },
    };
  }
}
