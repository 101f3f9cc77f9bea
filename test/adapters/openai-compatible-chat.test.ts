import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleChat } from '../../lambdas/adapters/local/openai-compatible-chat.js';
import { NOT_IN_LIBRARY } from '../../lambdas/core/chat/prompt.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { ChatModelRequest } from '../../lambdas/ports.js';

/** A small server speaking the OpenAI chat completions protocol, scripted per test. */
let server: Server;
let url: string;
let received: Array<{ path: string; headers: IncomingMessage['headers']; body: any }> = [];
let respond: (res: ServerResponse) => void = () => undefined;

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(raw || '{}') });
      respond(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
});

const completion = (content: string, usage?: object) => (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content } }], ...(usage ? { usage } : {}) }));
};

const request: ChatModelRequest = {
  question: 'When does Falcon launch?',
  itemize: false,
  passages: [
    { number: 1, title: 'Falcon status', lineStart: 3, lines: ['The Falcon launch moved to 14 March 2027.'] },
    { number: 2, title: 'Budget', lineStart: 1, lines: ['Budget: 2.4 million euros.'] },
  ],
};

describe('OpenAiCompatibleChat', () => {
  it('sends the grounding prompt with numbered passages and line numbers, and reads citations and usage', async () => {
    respond = completion('Falcon launches on 14 March 2027 [1].', { prompt_tokens: 321, completion_tokens: 12 });
    const model = new OpenAiCompatibleChat({ url, model: 'llama3.1:8b', apiKey: 'secret' });
    const answer = await model.answer(request);

    expect(received).toHaveLength(1);
    const sent = received[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer secret');
    expect(sent.body.model).toBe('llama3.1:8b');
    expect(sent.body.temperature).toBe(0);
    expect(sent.body.messages[0].role).toBe('system');
    expect(sent.body.messages[0].content).toMatch(/ONLY the numbered passages/);
    expect(sent.body.messages[0].content).toContain(NOT_IN_LIBRARY);
    expect(sent.body.messages[1].content).toContain('[1] Title: Falcon status\n3: The Falcon launch moved to 14 March 2027.');
    expect(sent.body.messages[1].content).toContain('Question: When does Falcon launch?');

    expect(answer.reply).toBe('Falcon launches on 14 March 2027 [1].');
    expect(answer.citations).toEqual([{ passage: 1 }]);
    expect(answer.usage).toEqual({ promptTokens: 321, completionTokens: 12 });
  });

  it('reads NOT_IN_LIBRARY as no answer, ignores citations of passages it was not given, and counts tokens itself when the server does not', async () => {
    respond = completion(NOT_IN_LIBRARY);
    const model = new OpenAiCompatibleChat({ url: `${url}/chat/completions`, model: 'm' });
    const none = await model.answer(request);
    expect(none.reply).toBeNull();
    expect(none.citations).toEqual([]);
    expect(none.usage.promptTokens).toBeGreaterThan(50);
    expect(none.usage.completionTokens).toBeGreaterThan(0);
    expect(received[0]!.path).toBe('/v1/chat/completions');
    expect(received[0]!.headers.authorization).toBeUndefined();

    respond = completion('It is 2.4 million [2][7], see also [1, 2].');
    const some = await model.answer(request);
    expect(some.citations).toEqual([{ passage: 2 }, { passage: 1 }]);
  });

  it('turns throttling and server errors into BackendUnavailableError with the Retry-After it was given', async () => {
    respond = (res) => {
      res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
      res.end('{"error":{"message":"slow down"}}');
    };
    const model = new OpenAiCompatibleChat({ url, model: 'm' });
    const throttled = await model.answer(request).catch((e) => e);
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled.retryAfterSeconds).toBe(7);

    respond = (res) => {
      res.writeHead(500);
      res.end('boom');
    };
    await expect(model.answer(request)).rejects.toBeInstanceOf(BackendUnavailableError);

    respond = (res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices":[]}');
    };
    await expect(model.answer(request)).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('turns an unreachable server and a timeout into BackendUnavailableError', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await expect(new OpenAiCompatibleChat({ url: `http://127.0.0.1:${port}/v1`, model: 'm' }).answer(request)).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );

    respond = () => undefined; // never answers
    await expect(new OpenAiCompatibleChat({ url, model: 'm', timeoutMs: 200 }).answer(request)).rejects.toBeInstanceOf(
      BackendUnavailableError,
    );
  });
});
