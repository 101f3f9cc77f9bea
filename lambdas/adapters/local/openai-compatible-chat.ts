import { parseCitedReply, systemPrompt, userPrompt } from '../../core/chat/prompt.js';
import { BackendUnavailableError } from '../../core/errors.js';
import { countTokens } from './o200k-tokens.js';
import { postOpenAi, type OpenAiServer } from './openai-http.js';
import type { ChatModel, ChatModelAnswer, ChatModelRequest } from '../../ports.js';

/** The server (url e.g. http://127.0.0.1:11434/v1 for Ollama, http://127.0.0.1:8000/v1 for vLLM) and the model. */
export interface OpenAiCompatibleConfig extends OpenAiServer {
  model: string;
  maxTokens?: number;
}

interface CompletionBody {
  choices?: Array<{ message?: { content?: string | null } }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number };
}

/**
 * Any server speaking the OpenAI chat completions protocol (Ollama, vLLM,
 * llama.cpp server, LM Studio, ...). Failures, throttling and timeouts are
 * BackendUnavailableError (503, safe to retry).
 */
export class OpenAiCompatibleChat implements ChatModel {
  readonly name: string;
  readonly judges = true;

  constructor(private readonly config: OpenAiCompatibleConfig) {
    this.name = `openai-compatible:${config.model}`;
  }

  async answer(request: ChatModelRequest): Promise<ChatModelAnswer> {
    const system = systemPrompt(request.itemize);
    const user = userPrompt(request);
    const body = (await postOpenAi(this.config, '/chat/completions', {
      model: this.config.model,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      temperature: 0,
      max_tokens: this.config.maxTokens ?? 800,
      stream: false,
    }, 'the chat model')) as CompletionBody;
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw new BackendUnavailableError('the chat model sent no answer');
    return {
      ...parseCitedReply(content, request.passages.length),
      usage: {
        promptTokens: body.usage?.prompt_tokens ?? (await countTokens(system)) + (await countTokens(user)),
        completionTokens: body.usage?.completion_tokens ?? (await countTokens(content)),
      },
    };
  }
}
