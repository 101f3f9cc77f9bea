import { parseCitedReply, systemPrompt, userPrompt } from '../../core/chat/prompt.js';
import { BackendUnavailableError } from '../../core/errors.js';
import { countTokens } from './o200k-tokens.js';
import type { ChatModel, ChatModelAnswer, ChatModelRequest } from '../../ports.js';

export interface OpenAiCompatibleConfig {
  /** Base URL of the API, e.g. http://127.0.0.1:11434/v1 (Ollama) or http://127.0.0.1:8000/v1 (vLLM). */
  url: string;
  model: string;
  /** Sent as a Bearer token when set. */
  apiKey?: string;
  timeoutMs?: number;
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
  private readonly endpoint: string;

  constructor(private readonly config: OpenAiCompatibleConfig) {
    this.name = `openai-compatible:${config.model}`;
    const base = config.url.replace(/\/+$/, '');
    this.endpoint = base.endsWith('/chat/completions') ? base : `${base}/chat/completions`;
  }

  async answer(request: ChatModelRequest): Promise<ChatModelAnswer> {
    const system = systemPrompt(request.itemize);
    const user = userPrompt(request);
    let response: Response;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.config.apiKey ? { authorization: `Bearer ${this.config.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.config.model,
          messages: [
            { role: 'system', content: system },
            { role: 'user', content: user },
          ],
          temperature: 0,
          max_tokens: this.config.maxTokens ?? 800,
          stream: false,
        }),
        signal: AbortSignal.timeout(this.config.timeoutMs ?? 60_000),
      });
    } catch (error) {
      throw new BackendUnavailableError('the chat model did not answer', 1, { cause: error });
    }
    if (!response.ok) {
      const retryAfter = Number(response.headers.get('retry-after'));
      await response.body?.cancel();
      throw new BackendUnavailableError(
        `the chat model answered HTTP ${response.status}`,
        Number.isFinite(retryAfter) && retryAfter > 0 ? Math.ceil(retryAfter) : response.status === 429 ? 5 : 1,
      );
    }
    let body: CompletionBody;
    try {
      body = (await response.json()) as CompletionBody;
    } catch (error) {
      throw new BackendUnavailableError('the chat model sent a malformed answer', 1, { cause: error });
    }
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
