import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAiCompatibleChat } from '../../lambdas/adapters/local/openai-compatible-chat.js';
import { NOT_IN_LIBRARY } from '../../lambdas/core/chat/prompt.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import type { ChatModelRequest } from '../../lambdas/core/ports.js';
import {
  answersFrom,
  type ChatModelServer,
  type ScriptedReply,
  startChatModelServer,
} from '../support/chat-model-server.js';

/** The adapter against a scripted OpenAI-compatible model on loopback (test/support/chat-model-server.ts). */
let server: ChatModelServer;
let logged: Array<{ message: string; detail: Record<string, unknown> }> = [];
const log = (message: string, detail: Record<string, unknown>) => logged.push({ message, detail });

beforeAll(async () => {
  server = await startChatModelServer({ model: 'llama3.1:8b' });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
  logged = [];
});

const request: ChatModelRequest = {
  question: 'When does Falcon launch?',
  itemize: false,
  passages: [
    {
      number: 1,
      title: 'Falcon status',
      lineStart: 3,
      lines: ['The Falcon launch moved to 14 March 2027', 'because the supplier delayed the battery cells.'],
    },
    { number: 2, title: 'Budget', lineStart: 1, lines: ['Budget: 2.4 million euros.'] },
  ],
};

const model = (extra: { timeoutMs?: number; url?: string; apiKey?: string } = {}) =>
  new OpenAiCompatibleChat({ url: server.url, model: 'llama3.1:8b', ...extra }, { log });
const reply = (scripted: ScriptedReply) => {
  server.script = () => scripted;
};
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as BackendUnavailableError,
  );

describe('OpenAiCompatibleChat, whole answers', () => {
  it('sends the grounding prompt with the answer schema, and reads the answer, its citations (lines from the quote) and usage', async () => {
    reply({
      json: {
        answer: 'Falcon launches on 14 March 2027 [1].',
        citations: [{ passage: 1, quote: 'moved to 14 March 2027 because the supplier' }],
      },
      usage: { prompt_tokens: 321, completion_tokens: 12 },
    });
    const answer = await model({ apiKey: 'secret' }).answer(request);

    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer secret');
    expect(sent.body).toMatchObject({ model: 'llama3.1:8b', temperature: 0, max_tokens: 1200, stream: false });
    expect(sent.body.response_format).toMatchObject({
      type: 'json_schema',
      json_schema: { name: 'answer_from_library', strict: true },
    });
    expect(sent.body.response_format!.json_schema!.schema.properties.citations.items.properties.passage.enum).toEqual([
      1, 2,
    ]);
    expect(sent.system).toMatch(/ONLY the numbered passages/);
    expect(sent.system).toContain('"answer": string or null');
    expect(sent.user).toContain(
      '[1] Title: Falcon status\n3: The Falcon launch moved to 14 March 2027\n4: because the supplier delayed the battery cells.',
    );
    expect(sent.user.endsWith('Question: When does Falcon launch?')).toBe(true);

    expect(answer).toEqual({
      reply: 'Falcon launches on 14 March 2027 [1].',
      citations: [{ passage: 1, lines: [3, 4], quote: 'moved to 14 March 2027 because the supplier' }],
      usage: { promptTokens: 321, completionTokens: 12 },
    });
    expect(logged).toEqual([]);
  });

  it('puts the conversation so far above the passages', async () => {
    reply({ json: { answer: '2.4 million euros [2].', citations: [{ passage: 2, quote: null }] } });
    await model().answer({
      ...request,
      question: 'And its budget?',
      history: [{ question: 'When does Falcon launch?', reply: 'On 14 March 2027 [1].' }],
    });
    const user = server.requests[0]!.user;
    expect(user.indexOf('Conversation so far')).toBeLessThan(user.indexOf('Passages:'));
    expect(user).toContain('User: When does Falcon launch?\nAssistant: On 14 March 2027 .');
  });

  it('reads JSON in a code fence, JSON among words, and a plain-text reply with [n] markers (a server that ignores the schema)', async () => {
    const object = {
      answer: 'It is 2.4 million euros [2].',
      citations: [{ passage: 2, quote: 'Budget: 2.4 million euros.' }],
    };
    for (const text of [
      `\`\`\`json\n${JSON.stringify(object, null, 2)}\n\`\`\``,
      `Here you are: ${JSON.stringify(object)}`,
    ]) {
      reply({ text });
      expect(await model().answer(request)).toMatchObject({
        reply: 'It is 2.4 million euros [2].',
        citations: [{ passage: 2, lines: [1] }],
      });
    }
    reply({ text: 'It is 2.4 million euros [2], see also [1, 2].' });
    expect(await model().answer(request)).toMatchObject({
      reply: 'It is 2.4 million euros [2], see also [1, 2].',
      citations: [{ passage: 2 }, { passage: 1 }],
    });
  });

  it('reads a refusal (null, or NOT_IN_LIBRARY) as no answer, and counts tokens itself when the server reports none', async () => {
    reply({ json: { answer: null, citations: [] }, usage: false });
    const none = await model().answer(request);
    expect(none.reply).toBeNull();
    expect(none.citations).toEqual([]);
    expect(none.usage.promptTokens).toBeGreaterThan(100);
    expect(none.usage.completionTokens).toBeGreaterThan(0);
    reply({ text: NOT_IN_LIBRARY });
    expect((await model().answer(request)).reply).toBeNull();
    expect(logged).toEqual([]);
  });

  it('rejects a reply that cites a passage it was not given, and one that cites nothing: no answer, and a log line that says why', async () => {
    reply({ json: { answer: 'It launches in 2029 [3].', citations: [{ passage: 3, quote: 'launches in 2029' }] } });
    const wrong = await model().answer(request);
    expect(wrong).toMatchObject({ reply: null, citations: [] });
    reply({ json: { answer: 'It launches in March.', citations: [] } });
    const uncited = await model().answer(request);
    expect(uncited).toMatchObject({ reply: null, citations: [] });
    expect(logged.map((l) => l.detail.reason)).toEqual(['unknown_passage', 'uncited']);
    expect(logged[0]!.detail).toMatchObject({
      model: 'openai-compatible:llama3.1:8b',
      detail: 'cites passage 3, which it was not given (given 2)',
      passages: 2,
    });
    expect(JSON.stringify(logged)).not.toMatch(/2029|March/);
  });

  it('keeps the citation of a quote its passage does not hold, without the quote', async () => {
    reply({ json: { answer: 'March 2027 [1].', citations: [{ passage: 1, quote: 'launch is set for March 2027' }] } });
    const answer = await model().answer(request);
    expect(answer).toMatchObject({ reply: 'March 2027 [1].', citations: [{ passage: 1 }] });
    expect(answer.citations[0]).not.toHaveProperty('quote');
    expect(logged).toEqual([
      {
        message: expect.stringMatching(/quote dropped, citation kept/),
        detail: { model: 'openai-compatible:llama3.1:8b', dropped: 1 },
      },
    ]);
  });

  it('turns malformed output into BackendUnavailableError (no retry), saying when the model hit its token limit', async () => {
    reply({
      text: '{"answer": "Falcon launches on 14 March [1]", "citations": [{"passage": 1, "quo',
      finishReason: 'length',
    });
    const cut = await failureOf(model().answer(request));
    expect(cut).toBeInstanceOf(BackendUnavailableError);
    expect(cut!.message).toMatch(/not the answer format.*token limit/);
    reply({ json: { reply: 'Falcon [1]' } });
    expect(await failureOf(model().answer(request))).toBeInstanceOf(BackendUnavailableError);
    expect(server.requests).toHaveLength(2);
  });

  it('asks again without response_format when the server refuses it, and from then on', async () => {
    server.script = (seen) =>
      seen.body.response_format
        ? {
            status: 400,
            error: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.",
          }
        : { json: { answer: 'March [1].', citations: [{ passage: 1, quote: null }] } };
    const chat = model();
    expect((await chat.answer(request)).reply).toBe('March [1].');
    expect((await chat.answer(request)).reply).toBe('March [1].');
    expect(server.requests.map((r) => Boolean(r.body.response_format))).toEqual([true, false, false]);
    expect(logged.map((l) => l.message)).toEqual([expect.stringMatching(/refused response_format/)]);

    // Any other refusal is the operator's to mend: 503, nothing retried.
    server.requests.length = 0;
    reply({ status: 401, error: 'invalid api key' });
    const refused = await failureOf(model().answer(request));
    expect(refused).toBeInstanceOf(BackendUnavailableError);
    expect(refused!.message).toMatch(/HTTP 401: invalid api key/);
    expect(server.requests).toHaveLength(1);
  });

  it('turns throttling and server errors into BackendUnavailableError with the Retry-After it was given', async () => {
    reply({ status: 429, retryAfter: '7', error: 'slow down' });
    const throttled = await failureOf(model().answer(request));
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled!.retryAfterSeconds).toBe(7);
    reply({ status: 500 });
    expect((await failureOf(model().answer(request)))!.retryAfterSeconds).toBe(1);
  });

  it('waits for a slow model within the timeout, and turns a hang and an unreachable server into BackendUnavailableError', async () => {
    reply({ json: { answer: 'March [1].', citations: [{ passage: 1, quote: null }] }, delayMs: 150 });
    expect((await model({ timeoutMs: 2_000 }).answer(request)).reply).toBe('March [1].');

    reply({ hang: true });
    const hung = await failureOf(model({ timeoutMs: 200 }).answer(request));
    expect(hung).toBeInstanceOf(BackendUnavailableError);
    expect(hung!.message).toMatch(/did not answer/);

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await failureOf(model({ url: `http://127.0.0.1:${port}/v1` }).answer(request))).toBeInstanceOf(
      BackendUnavailableError,
    );
  });

  it("ends with the caller's own reason when the caller gives up", async () => {
    reply({ hang: true });
    const controller = new AbortController();
    const pending = failureOf(model().answer(request, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('the client went away')), 50);
    const error = await pending;
    expect(error).not.toBeInstanceOf(BackendUnavailableError);
    expect((error as Error).message).toBe('the client went away');
  });
});

describe('OpenAiCompatibleChat, streamed answers', () => {
  const stream = async (scripted: ScriptedReply, extra: Parameters<typeof model>[0] = {}) => {
    reply(scripted);
    const deltas: string[] = [];
    const answer = await model(extra).answer(request, { onDelta: (text) => deltas.push(text) });
    return { answer, deltas };
  };

  it("asks for a stream with usage, passes on the answer's text as it arrives, and returns the whole validated answer", async () => {
    let resume!: () => void;
    const resumed = new Promise<void>((resolve) => (resume = resolve));
    const text = 'Falcon launches on 14 March 2027 [1], "as planned".';
    reply({
      json: { answer: text, citations: [{ passage: 1, quote: '14 March 2027' }] },
      chunkChars: 4,
      pauseAfterChunks: 8,
      resume: resumed,
      usage: { prompt_tokens: 300, completion_tokens: 40 },
    });
    const deltas: string[] = [];
    let chunksWhenFirstDelta = -1;
    const answering = model().answer(request, {
      onDelta: (delta) => {
        if (!deltas.length) {
          chunksWhenFirstDelta = server.chunksSent;
          resume();
        }
        deltas.push(delta);
      },
    });
    const chunksBefore = server.chunksSent;
    const answer = await answering;

    const sent = server.requests[0]!.body;
    expect(sent).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
      response_format: { type: 'json_schema' },
    });
    // The first words came while the server still held the rest back.
    expect(chunksWhenFirstDelta - chunksBefore).toBeLessThanOrEqual(8);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(text);
    expect(answer).toEqual({
      reply: text,
      citations: [{ passage: 1, lines: [3], quote: '14 March 2027' }],
      usage: { promptTokens: 300, completionTokens: 40 },
    });
  });

  it('streams nothing for a refusal', async () => {
    for (const scripted of [
      { json: { answer: null, citations: [] } },
      { json: { answer: NOT_IN_LIBRARY, citations: [] } },
      { text: NOT_IN_LIBRARY },
    ]) {
      const { answer, deltas } = await stream({ ...scripted, chunkChars: 3 });
      expect(answer.reply).toBeNull();
      expect(deltas).toEqual([]);
    }
  });

  it('rejects at the end a streamed reply citing a passage it was not given (its draft streamed), or citing nothing', async () => {
    const wrong = await stream({ json: { answer: 'In 2029 [4].', citations: [{ passage: 4, quote: null }] } });
    expect(wrong.deltas.join('')).toBe('In 2029 [4].');
    expect(wrong.answer).toMatchObject({ reply: null, citations: [] });
    const uncited = await stream({ json: { answer: 'In March.', citations: [] } });
    expect(uncited.answer.reply).toBeNull();
    expect(logged.map((l) => l.detail.reason)).toEqual(['unknown_passage', 'uncited']);
  });

  it('streams fenced JSON and plain text too, and answers from a server that does not stream', async () => {
    const object = {
      answer: 'It is 2.4 million euros [2].',
      citations: [{ passage: 2, quote: 'Budget: 2.4 million euros.' }],
    };
    const fenced = await stream({ text: `\`\`\`json\n${JSON.stringify(object)}\n\`\`\``, chunkChars: 2 });
    expect(fenced.deltas.join('')).toBe(object.answer);
    expect(fenced.answer.citations).toEqual([{ passage: 2, lines: [1], quote: 'Budget: 2.4 million euros.' }]);

    const plain = await stream({ text: 'It is 2.4 million euros [2].' });
    expect(plain.deltas.join('')).toBe('It is 2.4 million euros [2].');
    expect(plain.answer.citations).toEqual([{ passage: 2 }]);

    const whole = await stream({ json: object, ignoreStream: true });
    expect(whole.deltas).toEqual([object.answer]);
    expect(whole.answer.reply).toBe(object.answer);
  });

  it('counts tokens itself when the stream reports no usage', async () => {
    const { answer } = await stream({
      json: { answer: 'March [1].', citations: [{ passage: 1, quote: null }] },
      usage: false,
    });
    expect(answer.usage.promptTokens).toBeGreaterThan(100);
    expect(answer.usage.completionTokens).toBeGreaterThan(5);
  });

  it('turns an error event, a dropped connection, broken JSON and a stall into BackendUnavailableError', async () => {
    const json = { answer: 'Falcon launches on 14 March 2027 [1].', citations: [{ passage: 1, quote: null }] };
    const errorEvent = await failureOf(stream({ json, failAfterChunks: { chunks: 3, how: 'error-event' } }));
    expect(errorEvent).toBeInstanceOf(BackendUnavailableError);
    expect(errorEvent!.message).toMatch(/failed while answering: the model crashed/);
    expect(await failureOf(stream({ json, failAfterChunks: { chunks: 3, how: 'drop' } }))).toBeInstanceOf(
      BackendUnavailableError,
    );
    expect(await failureOf(stream({ text: '{"answer": "Falcon [1]", "citations": [' }))).toBeInstanceOf(
      BackendUnavailableError,
    );

    // The timeout is the longest wait for the next piece: a stream that stops mid-answer fails after it.
    const never = new Promise<void>(() => undefined);
    const stalled = await failureOf(stream({ json, pauseAfterChunks: 2, resume: never }, { timeoutMs: 300 }));
    expect(stalled).toBeInstanceOf(BackendUnavailableError);
    expect(stalled!.message).toMatch(/broke off/);
  });

  it('keeps a slow but steady stream going past the timeout, since each piece restarts it', async () => {
    // 300 ms to the first piece, then a 300 ms pause mid-answer, with a 400 ms timeout: each wait is within it, the whole is not.
    server.script = () => {
      const later = new Promise<void>((resolve) => setTimeout(resolve, 600));
      return {
        json: { answer: 'March [1].', citations: [{ passage: 1, quote: null }] },
        delayMs: 300,
        pauseAfterChunks: 2,
        resume: later,
      };
    };
    const started = Date.now();
    const answer = await model({ timeoutMs: 400 }).answer(request, { onDelta: () => undefined });
    expect(answer.reply).toBe('March [1].');
    expect(Date.now() - started).toBeGreaterThan(400);
  });

  it('throttling before the stream starts is BackendUnavailableError with its Retry-After', async () => {
    const throttled = await failureOf(stream({ status: 429, retryAfter: '3' }));
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled!.retryAfterSeconds).toBe(3);
  });
});

describe('OpenAiCompatibleChat with a model that answers from what it is given', () => {
  it('cites the passage holding the answer', async () => {
    server.script = answersFrom('Budget: 2.4 million euros.', (n) => `The budget is 2.4 million euros [${n}].`);
    const answer = await model().answer(request);
    expect(answer).toMatchObject({
      reply: 'The budget is 2.4 million euros [2].',
      citations: [{ passage: 2, lines: [1] }],
    });
  });
});
