import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request the server received, with its system and user messages. */
export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: {
    model?: string;
    messages?: Array<{ role: string; content: string }>;
    stream?: boolean;
    stream_options?: { include_usage?: boolean };
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: any } };
    temperature?: number;
    max_tokens?: number;
  };
  system: string;
  user: string;
}

/** How the scripted model answers one request. */
export type ScriptedReply = (
  | { json: unknown } // the answer object, written as JSON text
  | { text: string } // the content as it is: plain text, fenced JSON, broken JSON...
  | { status: number; error?: string; retryAfter?: string } // an HTTP error
  | { hang: true } // never answers
) & {
  /** Milliseconds before answering (a slow model). */
  delayMs?: number;
  /** Reported usage; false: none (as some servers do). Default: words of the prompt and of the content. */
  usage?: false | { prompt_tokens: number; completion_tokens: number };
  finishReason?: string;
  /** Streamed: characters per chunk (default 5). */
  chunkChars?: number;
  /** Streamed: after this many chunks, wait for `resume` before the rest. */
  pauseAfterChunks?: number;
  resume?: Promise<void>;
  /** Streamed: after this many chunks, an error event (`{error: {message}}`), or the connection dropped. */
  failAfterChunks?: { chunks: number; how: 'error-event' | 'drop' };
  /** Answers whole JSON even when asked to stream (a server that does not stream). */
  ignoreStream?: boolean;
};

export type Script = (request: SeenRequest) => ScriptedReply;

export interface ChatModelServer {
  /** Base URL with /v1, as a user sets LIBRARY_CHAT_URL. */
  url: string;
  model: string;
  /** Every request received, in order. */
  requests: SeenRequest[];
  /** How the next requests are answered; change it between tests. */
  script: Script;
  /** Chunks written to streamed answers so far. */
  chunksSent: number;
  close(): Promise<void>;
}

const words = (text: string) => text.split(/\s+/).filter(Boolean).length;

/**
 * A chat model on loopback speaking OpenAI's `POST /v1/chat/completions`, as
 * Ollama, vLLM, llama.cpp server or LM Studio do, answering from a script:
 * whole (`stream: false`) or as server-sent events (`stream: true`, content
 * in `choices[0].delta.content` pieces, usage in a last chunk when
 * `stream_options.include_usage`, then `data: [DONE]`). It records every
 * request, so a test can read exactly what the model was shown.
 */
export async function startChatModelServer(
  options: { model?: string; script?: Script } = {},
): Promise<ChatModelServer> {
  const model = options.model ?? 'scripted-model';
  const open = new Set<ServerResponse>();
  const state: ChatModelServer = {
    url: '',
    model,
    requests: [],
    script: options.script ?? (() => ({ json: { answer: null, citations: [] } })),
    chunksSent: 0,
    close: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', async () => {
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
      };
      let body: SeenRequest['body'];
      try {
        body = JSON.parse(raw || '{}');
      } catch {
        return send(400, { error: { message: 'the body is not JSON' } });
      }
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
        return send(404, { error: { message: `no route ${req.method} ${req.url}` } });
      if (body.model !== model)
        return send(404, { error: { message: `model "${body.model}" not found, try pulling it first` } });
      const messages = body.messages ?? [];
      const seen: SeenRequest = {
        path: req.url,
        headers: req.headers,
        body,
        system: messages.find((m) => m.role === 'system')?.content ?? '',
        user: messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content)
          .join('\n'),
      };
      state.requests.push(seen);
      const reply = state.script(seen);
      if ('hang' in reply) {
        open.add(res);
        return;
      }
      if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
      if ('status' in reply) {
        return send(
          reply.status,
          { error: { message: reply.error ?? `HTTP ${reply.status}` } },
          reply.retryAfter ? { 'retry-after': reply.retryAfter } : {},
        );
      }
      const content = 'json' in reply ? JSON.stringify(reply.json) : reply.text;
      const usage =
        reply.usage === false
          ? undefined
          : (reply.usage ?? {
              prompt_tokens: words(seen.system) + words(seen.user),
              completion_tokens: words(content),
            });
      const finishReason = reply.finishReason ?? 'stop';
      if (!body.stream || reply.ignoreStream) {
        return send(200, {
          id: 'chatcmpl-scripted',
          object: 'chat.completion',
          model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
          ...(usage ? { usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } } : {}),
        });
      }
      open.add(res);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const event = (data: unknown) =>
        new Promise<void>((resolve) => {
          res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`, () => resolve());
        });
      const chunk = (delta: object, finish: string | null) => ({
        id: 'chatcmpl-scripted',
        object: 'chat.completion.chunk',
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      await event(chunk({ role: 'assistant', content: '' }, null));
      const size = reply.chunkChars ?? 5;
      const pieces = Array.from(content).reduce<string[]>((all, c, i) => {
        if (i % size === 0) all.push('');
        all[all.length - 1] += c;
        return all;
      }, []);
      for (const [i, piece] of pieces.entries()) {
        if (reply.failAfterChunks?.chunks === i) {
          if (reply.failAfterChunks.how === 'drop') {
            res.destroy();
            open.delete(res);
            return;
          }
          await event({ error: { message: 'the model crashed' } });
          res.end();
          open.delete(res);
          return;
        }
        if (reply.pauseAfterChunks === i) await reply.resume;
        await event(chunk({ content: piece }, null));
        state.chunksSent += 1;
        // Each chunk leaves on its own, as a model writes.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await event(chunk({}, finishReason));
      if (usage && body.stream_options?.include_usage) {
        await event({
          id: 'chatcmpl-scripted',
          object: 'chat.completion.chunk',
          model,
          choices: [],
          usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
        });
      }
      await event('[DONE]');
      res.end();
      open.delete(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return state;
}

/** One passage of a grounding prompt as the model reads it: its number, title and numbered lines. */
export interface PromptPassage {
  number: number;
  title: string | null;
  lines: Array<{ line: number; text: string }>;
}

/** The numbered passages of a grounding prompt (core/chat/prompt.ts userPrompt), read as a model would. */
export function passagesIn(user: string): PromptPassage[] {
  const start = user.indexOf('Passages:\n\n');
  const end = user.lastIndexOf('\n\nQuestion: ');
  if (start < 0 || end < 0) return [];
  const passages: PromptPassage[] = [];
  for (const line of user.slice(start + 'Passages:\n\n'.length, end).split('\n')) {
    const head = /^\[(\d+)\] (?:Title: (.*)|Untitled)$/.exec(line);
    if (head) {
      passages.push({ number: Number(head[1]), title: head[2] ?? null, lines: [] });
      continue;
    }
    const numbered = /^(\d+): (.*)$/.exec(line);
    if (numbered && passages.length) passages.at(-1)!.lines.push({ line: Number(numbered[1]), text: numbered[2]! });
  }
  return passages;
}

/** The question at the end of a grounding prompt. */
export const questionIn = (user: string) => user.slice(user.lastIndexOf('\n\nQuestion: ') + '\n\nQuestion: '.length);

/** The number of the first passage holding these words, if any was given. */
export function passageHolding(user: string, text: string): number | null {
  return (
    passagesIn(user).find((p) =>
      p.lines
        .map((l) => l.text)
        .join(' ')
        .includes(text),
    )?.number ?? null
  );
}

/**
 * A model that answers when a passage holds `words`: citing that passage,
 * quoting the words; and says the library does not hold it otherwise.
 */
export function answersFrom(words: string, answer: (n: number) => string): Script {
  return (request) => {
    const n = passageHolding(request.user, words);
    return {
      json:
        n === null ? { answer: null, citations: [] } : { answer: answer(n), citations: [{ passage: n, quote: words }] },
    };
  };
}
