import {
  ANSWER_MAX_TOKENS,
  ANSWER_TOOL,
  answerSchema,
  type ChatModelLog,
  judgeReply,
  settleVerdict,
  systemPrompt,
  userPrompt,
} from '../../core/chat/prompt.js';
import { AnswerStream } from '../../core/chat/reply-stream.js';
import { BackendUnavailableError } from '../../core/errors.js';
import type { ChatModel, ChatModelAnswer, ChatModelCallOptions, ChatModelRequest } from '../../core/ports.js';
import { countTokens } from './o200k-tokens.js';
import {
  failure,
  OpenAiHttpError,
  type OpenAiServer,
  openOpenAi,
  postOpenAi,
  readServerSentEvents,
} from './openai-http.js';

/** The server (url e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM) and the model. */
export interface OpenAiCompatibleConfig extends OpenAiServer {
  model: string;
  maxTokens?: number;
}

export interface OpenAiCompatibleChatOptions {
  /** Where rejected replies, dropped quotes and a server refusing `response_format` are reported. */
  log?: ChatModelLog;
}

interface Usage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

interface CompletionBody {
  choices?: Array<{ message?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: Usage;
}

interface ChunkBody {
  choices?: Array<{ delta?: { content?: string | null }; finish_reason?: string | null }>;
  usage?: Usage | null;
  error?: string | { message?: string };
}

/** What the server wrote, however it came. */
interface Completion {
  content: string;
  usage?: Usage;
  finishReason?: string;
}

const WHAT = 'the chat model';

/**
 * Any server speaking the OpenAI chat completions protocol (Ollama, vLLM,
 * llama.cpp server, LM Studio, OpenAI, ...). It asks for the answer format
 * of core/chat/prompt.ts as `response_format: {type: "json_schema"}` (the
 * system prompt spells the format out too, so a server that ignores the
 * schema still gets JSON from most models, and plain text with [n] markers is
 * read as well); a server that refuses the parameter (HTTP 400 naming it) is
 * asked again without it, and from then on. With `onDelta` the answer
 * streams (`stream: true`, server-sent events) and the answer's text is
 * passed on as it arrives (AnswerStream). Failures, throttling and timeouts
 * are BackendUnavailableError (503, safe to retry).
 */
export class OpenAiCompatibleChat implements ChatModel {
  readonly name: string;
  readonly judges = true;
  /** False once the server refused `response_format`: the format is then asked for in the prompt only. */
  private structured = true;

  constructor(
    private readonly config: OpenAiCompatibleConfig,
    private readonly options: OpenAiCompatibleChatOptions = {},
  ) {
    this.name = `openai-compatible:${config.model}`;
  }

  async answer(request: ChatModelRequest, call: ChatModelCallOptions = {}): Promise<ChatModelAnswer> {
    const system = systemPrompt(request.itemize);
    const user = userPrompt(request);
    const completion = await this.complete(request, [system, user], call);
    const verdict = judgeReply({ text: completion.content }, request.passages);
    return {
      ...settleVerdict(verdict, {
        model: this.name,
        passages: request.passages.length,
        cut: completion.finishReason === 'length',
        log: this.options.log,
      }),
      usage: {
        promptTokens: completion.usage?.prompt_tokens ?? (await countTokens(system)) + (await countTokens(user)),
        completionTokens: completion.usage?.completion_tokens ?? (await countTokens(completion.content)),
      },
    };
  }

  private async complete(
    request: ChatModelRequest,
    [system, user]: [string, string],
    call: ChatModelCallOptions,
  ): Promise<Completion> {
    const structured = this.structured;
    const body = {
      model: this.config.model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      temperature: 0,
      max_tokens: this.config.maxTokens ?? ANSWER_MAX_TOKENS,
      ...(structured
        ? {
            response_format: {
              type: 'json_schema',
              json_schema: {
                name: ANSWER_TOOL.name,
                strict: true,
                schema: answerSchema(request.passages.map((p) => p.number)),
              },
            },
          }
        : {}),
      ...(call.onDelta ? { stream: true, stream_options: { include_usage: true } } : { stream: false }),
    };
    try {
      return call.onDelta ? await this.streamed(body, call.onDelta, call.signal) : await this.whole(body, call.signal);
    } catch (error) {
      if (!structured || !refusesResponseFormat(error)) throw error;
      this.structured = false;
      this.options.log?.('the chat server refused response_format: the answer format is asked for in the prompt only', {
        model: this.name,
        refusal: error.refusal,
      });
      return this.complete(request, [system, user], call);
    }
  }

  private async whole(body: object, signal: AbortSignal | undefined): Promise<Completion> {
    return completionOf((await postOpenAi(this.config, '/chat/completions', body, WHAT, { signal })) as CompletionBody);
  }

  private async streamed(
    body: object,
    onDelta: (text: string) => void,
    signal: AbortSignal | undefined,
  ): Promise<Completion> {
    const call = await openOpenAi(this.config, '/chat/completions', body, WHAT, { signal, streamed: true });
    const reader = new AnswerStream(onDelta);
    if (!(call.response.headers.get('content-type') ?? '').includes('text/event-stream')) {
      // A server that does not stream answers whole: its answer is passed on at once.
      let whole: Completion;
      try {
        whole = completionOf((await call.response.json()) as CompletionBody);
      } catch (error) {
        throw failure(error, WHAT, signal, 'sent a malformed answer');
      } finally {
        call.done();
      }
      reader.push(whole.content);
      reader.end();
      return whole;
    }
    const completion: Completion = { content: '' };
    await readServerSentEvents(call.response, WHAT, { ...call, signal }, (data) => {
      let chunk: ChunkBody;
      try {
        chunk = JSON.parse(data) as ChunkBody;
      } catch (error) {
        throw new BackendUnavailableError(`${WHAT} sent a malformed piece of its answer`, 1, { cause: error });
      }
      if (chunk.error) {
        const said = typeof chunk.error === 'string' ? chunk.error : chunk.error.message;
        throw new BackendUnavailableError(`${WHAT} failed while answering${said ? `: ${said.slice(0, 300)}` : ''}`, 1);
      }
      const choice = chunk.choices?.[0];
      const piece = choice?.delta?.content;
      if (typeof piece === 'string' && piece) {
        completion.content += piece;
        reader.push(piece);
      }
      if (choice?.finish_reason) completion.finishReason = choice.finish_reason;
      if (chunk.usage) completion.usage = chunk.usage;
    });
    reader.end();
    return completion;
  }
}

function completionOf(body: CompletionBody): Completion {
  const choice = body.choices?.[0];
  const content = choice?.message?.content;
  if (typeof content !== 'string') throw new BackendUnavailableError(`${WHAT} sent no answer`);
  return { content, usage: body.usage, finishReason: choice?.finish_reason ?? undefined };
}

/** A server that does not take `response_format` (or its json_schema kind) says so with a 4xx naming it. */
function refusesResponseFormat(error: unknown): error is OpenAiHttpError {
  return (
    error instanceof OpenAiHttpError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 429 &&
    /response_format|json_schema/i.test(error.refusal)
  );
}
