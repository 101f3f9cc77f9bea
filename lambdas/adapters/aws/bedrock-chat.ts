import {
  type BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  type ConverseCommandInput,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  type TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import {
  ANSWER_MAX_TOKENS,
  ANSWER_TOOL,
  answerSchema,
  type ChatModelLog,
  judgeReply,
  type RawReply,
  settleVerdict,
  systemPrompt,
  userPrompt,
} from '../../core/chat/prompt.js';
import { AnswerStream } from '../../core/chat/reply-stream.js';
import { BackendUnavailableError } from '../../core/errors.js';
import type { ChatModel, ChatModelAnswer, ChatModelCallOptions, ChatModelRequest } from '../../core/ports.js';
import { isTransientAwsError } from './errors.js';

export interface BedrockChatOptions {
  /** A Converse-capable model or inference profile id that takes a forced tool choice, e.g. anthropic.claude-3-5-haiku-20241022-v1:0. */
  modelId: string;
  maxTokens?: number;
  /** Where rejected replies and dropped quotes are reported. */
  log?: ChatModelLog;
}

const THROTTLE_NAMES = new Set(['ThrottlingException', 'ServiceQuotaExceededException', 'TooManyRequestsException']);

/** The stop reasons that mean a guardrail or a content filter withheld the answer. */
const BLOCKED = new Set(['guardrail_intervened', 'content_filtered']);

/** What the model returned, however it came. */
interface Reply {
  /** The forced tool's input, as parsed JSON (Converse) or its JSON text (ConverseStream). */
  toolInput?: unknown;
  toolInputText?: string;
  text: string;
  stopReason?: string;
  usage?: TokenUsage;
}

/**
 * The ChatModel port on Amazon Bedrock's Converse API. The answer format of
 * core/chat/prompt.ts is the input schema of a tool the model is made to
 * call (`toolChoice: {tool}`), so the reply arrives as validated-shape JSON;
 * it is read by the same rules as every model's (judgeReply). With
 * `onDelta` it streams (ConverseStream): the tool input's JSON arrives in
 * fragments and the answer's text is passed on as it comes (AnswerStream).
 * A guardrail or content filter stop is no answer. Every failure
 * (throttling, a transient fault, a model that is not enabled, an exception
 * in the stream) is BackendUnavailableError: 503 with Retry-After.
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

  async answer(request: ChatModelRequest, call: ChatModelCallOptions = {}): Promise<ChatModelAnswer> {
    const input: ConverseCommandInput = {
      modelId: this.options.modelId,
      system: [{ text: systemPrompt(request.itemize) }],
      messages: [{ role: 'user', content: [{ text: userPrompt(request) }] }],
      inferenceConfig: { maxTokens: this.options.maxTokens ?? ANSWER_MAX_TOKENS, temperature: 0 },
      toolConfig: {
        tools: [
          {
            toolSpec: {
              name: ANSWER_TOOL.name,
              description: ANSWER_TOOL.description,
              inputSchema: { json: answerSchema(request.passages.map((p) => p.number)) as never },
            },
          },
        ],
        toolChoice: { tool: { name: ANSWER_TOOL.name } },
      },
    };
    let reply: Reply;
    try {
      reply = call.onDelta
        ? await this.streamed(input, call.onDelta, call.signal)
        : await this.whole(input, call.signal);
    } catch (error) {
      throw unavailable(error, call.signal);
    }
    const usage = {
      // Converse always reports usage; Bedrock's count is the model's own tokenizer.
      promptTokens: reply.usage?.inputTokens ?? 0,
      completionTokens: reply.usage?.outputTokens ?? 0,
    };
    if (reply.stopReason && BLOCKED.has(reply.stopReason)) return { reply: null, citations: [], usage };
    const verdict = judgeReply(rawOf(reply), request.passages);
    const context = {
      model: this.name,
      passages: request.passages.length,
      cut: reply.stopReason === 'max_tokens',
      log: this.options.log,
    };
    return { ...settleVerdict(verdict, context), usage };
  }

  private async whole(input: ConverseCommandInput, signal: AbortSignal | undefined): Promise<Reply> {
    const output = await this.client.send(new ConverseCommand(input), { abortSignal: signal });
    const content: ContentBlock[] = output.output?.message?.content ?? [];
    const tool = content.find((block) => block.toolUse?.name === ANSWER_TOOL.name)?.toolUse;
    return {
      ...(tool ? { toolInput: tool.input } : {}),
      text: content.map((block) => block.text ?? '').join(''),
      stopReason: output.stopReason,
      usage: output.usage,
    };
  }

  private async streamed(
    input: ConverseCommandInput,
    onDelta: (text: string) => void,
    signal: AbortSignal | undefined,
  ): Promise<Reply> {
    const output = await this.client.send(new ConverseStreamCommand(input), { abortSignal: signal });
    const reply: Reply = { text: '' };
    const reader = new AnswerStream(onDelta);
    /** The content block index of the answer tool's call, once it starts. */
    let toolBlock: number | undefined;
    for await (const event of output.stream ?? []) {
      const thrown = streamException(event);
      if (thrown) throw thrown;
      if (event.contentBlockStart?.start?.toolUse?.name === ANSWER_TOOL.name) {
        toolBlock = event.contentBlockStart.contentBlockIndex;
        reply.toolInputText ??= '';
      }
      const delta = event.contentBlockDelta;
      if (delta?.delta?.toolUse && (toolBlock === undefined || delta.contentBlockIndex === toolBlock)) {
        const piece = delta.delta.toolUse.input ?? '';
        reply.toolInputText = (reply.toolInputText ?? '') + piece;
        reader.push(piece);
      } else if (delta?.delta?.text) reply.text += delta.delta.text;
      if (event.messageStop) reply.stopReason = event.messageStop.stopReason;
      if (event.metadata?.usage) reply.usage = event.metadata.usage;
    }
    if (!reply.stopReason || !BLOCKED.has(reply.stopReason)) reader.end();
    return reply;
  }
}

/** The reply as judgeReply reads it: the tool's input when the model called it (streamed: its JSON text, read like any text), else its text. */
function rawOf(reply: Reply): RawReply {
  if (reply.toolInput !== undefined) return { json: reply.toolInput };
  // The tool called with nothing (cut short): not the answer format.
  if (reply.toolInputText !== undefined) return reply.toolInputText ? { text: reply.toolInputText } : { json: null };
  return { text: reply.text };
}

/** An exception ConverseStream reports as an event of the stream, as the error it stands for. */
function streamException(event: ConverseStreamOutput): Error | null {
  const members: Array<[keyof ConverseStreamOutput, string]> = [
    ['internalServerException', 'InternalServerException'],
    ['modelStreamErrorException', 'ModelStreamErrorException'],
    ['serviceUnavailableException', 'ServiceUnavailableException'],
    ['throttlingException', 'ThrottlingException'],
    ['validationException', 'ValidationException'],
  ];
  for (const [member, name] of members) {
    const exception = (event as unknown as Record<string, { message?: string } | undefined>)[member];
    if (exception) return Object.assign(new Error(exception.message ?? name), { name });
  }
  return null;
}

/** Throttling waits 5 s, a transient fault 1 s, anything else (a model not enabled or not permitted) 30 s. A call the caller ended rejects with its reason. */
function unavailable(error: unknown, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return signal.reason;
  if (error instanceof BackendUnavailableError) return error;
  const name = (error as Error)?.name ?? 'Error';
  const retryAfter = THROTTLE_NAMES.has(name)
    ? 5
    : isTransientAwsError(error) || name === 'ModelStreamErrorException'
      ? 1
      : 30;
  return new BackendUnavailableError(`chat model: ${name}`, retryAfter, { cause: error });
}
