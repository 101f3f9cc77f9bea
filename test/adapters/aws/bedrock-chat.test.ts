import {
  AccessDeniedException,
  BedrockRuntimeClient,
  ConverseCommand,
  type ConverseCommandOutput,
  ConverseStreamCommand,
  type ConverseStreamOutput,
  ServiceUnavailableException,
  ThrottlingException,
} from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockChat } from '../../../lambdas/adapters/aws/bedrock-chat.js';
import { NOT_IN_LIBRARY } from '../../../lambdas/core/chat/prompt.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';
import type { ChatModelRequest } from '../../../lambdas/core/ports.js';

/** BedrockChat against a scripted Bedrock (aws-sdk-client-mock on BedrockRuntimeClient: Converse, and ConverseStream's events). */
const bedrock = mockClient(BedrockRuntimeClient);
let logged: Array<{ message: string; detail: Record<string, unknown> }> = [];
beforeEach(() => {
  bedrock.reset();
  logged = [];
});

const request: ChatModelRequest = {
  question: 'Make a list of the Falcon risks',
  itemize: true,
  passages: [
    {
      number: 1,
      title: 'Falcon status',
      lineStart: 8,
      lines: ['The main risk is the battery supplier.', 'A second risk is certification.'],
    },
    { number: 2, title: 'Budget', lineStart: 1, lines: ['Budget: 2.4 million euros.'] },
  ],
};

const model = () =>
  new BedrockChat(new BedrockRuntimeClient({ region: 'eu-west-1' }), {
    modelId: 'anthropic.claude-test',
    maxTokens: 500,
    log: (message, detail) => logged.push({ message, detail }),
  });
const usage = { inputTokens: 210, outputTokens: 14, totalTokens: 224 };

/** Converse's answer when the model calls the answer tool with `input`. */
const toolAnswer = (input: unknown, stopReason = 'tool_use'): ConverseCommandOutput =>
  ({
    output: {
      message: {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: 'tooluse_1', name: 'answer_from_library', input } }],
      },
    },
    stopReason,
    usage,
    metrics: { latencyMs: 300 },
    $metadata: {},
  }) as ConverseCommandOutput;

/** ConverseStream's events for a tool call whose input JSON arrives in pieces of `size` characters. */
function toolStream(
  input: unknown,
  options: { size?: number; stopReason?: string; raw?: string; after?: ConverseStreamOutput[] } = {},
): ConverseStreamOutput[] {
  const json = options.raw ?? JSON.stringify(input);
  const size = options.size ?? 6;
  const pieces: ConverseStreamOutput[] = [];
  for (let i = 0; i < json.length; i += size)
    pieces.push({
      contentBlockDelta: { contentBlockIndex: 0, delta: { toolUse: { input: json.slice(i, i + size) } } },
    });
  return [
    { messageStart: { role: 'assistant' } },
    {
      contentBlockStart: {
        contentBlockIndex: 0,
        start: { toolUse: { toolUseId: 'tooluse_1', name: 'answer_from_library' } },
      },
    },
    ...pieces,
    { contentBlockStop: { contentBlockIndex: 0 } },
    ...(options.after ?? []),
    { messageStop: { stopReason: (options.stopReason ?? 'tool_use') as never } },
    { metadata: { usage, metrics: { latencyMs: 300 } } },
  ];
}

async function* iterate(events: ConverseStreamOutput[], fail?: Error): AsyncIterable<ConverseStreamOutput> {
  for (const event of events) {
    await new Promise((resolve) => setImmediate(resolve));
    yield event;
  }
  if (fail) throw fail;
}
const streams = (events: ConverseStreamOutput[], fail?: Error) =>
  bedrock.on(ConverseStreamCommand).resolves({ stream: iterate(events, fail), $metadata: {} });

const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e as BackendUnavailableError,
  );

describe('BedrockChat, Converse', () => {
  it('makes the model call the answer tool, whose input schema is the answer format, and reads citations, lines and usage', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer({
        answer: '- Battery supplier [1]\n- Certification [1]',
        citations: [
          { passage: 1, quote: 'The main risk is the battery supplier.' },
          { passage: 1, quote: 'A second risk is certification.' },
        ],
      }),
    );
    const answer = await model().answer(request);

    const calls = bedrock.commandCalls(ConverseCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input.modelId).toBe('anthropic.claude-test');
    expect(input.inferenceConfig).toEqual({ maxTokens: 500, temperature: 0 });
    expect(input.toolConfig!.toolChoice).toEqual({ tool: { name: 'answer_from_library' } });
    const spec = input.toolConfig!.tools![0]!.toolSpec!;
    expect(spec.name).toBe('answer_from_library');
    expect((spec.inputSchema!.json as any).properties.citations.items.properties.passage.enum).toEqual([1, 2]);
    const system = input.system![0]!;
    expect('text' in system && system.text).toMatch(/ONLY the numbered passages/);
    expect('text' in system && system.text).toMatch(/Never add outside knowledge/);
    expect('text' in system && system.text).toMatch(/Cite every claim/);
    expect('text' in system && system.text).toMatch(/list of facts/);
    const user = input.messages![0]!.content![0]!;
    expect('text' in user && user.text).toContain(
      '8: The main risk is the battery supplier.\n9: A second risk is certification.',
    );

    expect(answer).toEqual({
      reply: '- Battery supplier [1]\n- Certification [1]',
      citations: [
        { passage: 1, lines: [8], quote: 'The main risk is the battery supplier.' },
        { passage: 1, lines: [9], quote: 'A second risk is certification.' },
      ],
      usage: { promptTokens: 210, completionTokens: 14 },
    });
  });

  it('puts the conversation so far in the one user message, above the passages', async () => {
    bedrock.on(ConverseCommand).resolves(toolAnswer({ answer: null, citations: [] }));
    await model().answer({ ...request, history: [{ question: 'What is Falcon?', reply: 'A launch project [1].' }] });
    const input = bedrock.commandCalls(ConverseCommand)[0]!.args[0].input;
    expect(input.messages).toHaveLength(1);
    const user = input.messages![0]!.content![0]!;
    expect('text' in user && user.text).toMatch(
      /^Conversation so far .*\nUser: What is Falcon\?\nAssistant: A launch project \.\n\nPassages:/,
    );
  });

  it('reads a refusal, NOT_IN_LIBRARY and a guardrail or content-filter stop as no answer', async () => {
    bedrock
      .on(ConverseCommand)
      .resolvesOnce(toolAnswer({ answer: null, citations: [] }))
      .resolvesOnce(toolAnswer({ answer: NOT_IN_LIBRARY, citations: [] }))
      .resolvesOnce(
        toolAnswer({ answer: 'Sorry [1]', citations: [{ passage: 1, quote: null }] }, 'guardrail_intervened'),
      )
      .resolvesOnce(toolAnswer({ answer: 'Sorry [1]', citations: [{ passage: 1, quote: null }] }, 'content_filtered'));
    for (let i = 0; i < 4; i++)
      expect(await model().answer(request)).toMatchObject({ reply: null, citations: [], usage: { promptTokens: 210 } });
    expect(logged).toEqual([]);
  });

  it('rejects a reply citing a passage it was not given, or citing nothing, with a log line', async () => {
    bedrock
      .on(ConverseCommand)
      .resolvesOnce(toolAnswer({ answer: 'Weather [5]', citations: [{ passage: 5, quote: 'rain' }] }))
      .resolvesOnce(toolAnswer({ answer: '- Battery supplier', citations: [] }));
    expect((await model().answer(request)).reply).toBeNull();
    expect((await model().answer(request)).reply).toBeNull();
    expect(logged.map((l) => [l.detail.model, l.detail.reason])).toEqual([
      ['bedrock:anthropic.claude-test', 'unknown_passage'],
      ['bedrock:anthropic.claude-test', 'uncited'],
    ]);
  });

  it('drops a quote its passage does not hold and keeps the citation', async () => {
    bedrock.on(ConverseCommand).resolves(
      toolAnswer({
        answer: '- Battery supplier [1]',
        citations: [{ passage: 1, quote: 'The supplier in Gdansk is late.' }],
      }),
    );
    expect(await model().answer(request)).toMatchObject({
      reply: '- Battery supplier [1]',
      citations: [{ passage: 1 }],
    });
    expect(logged.map((l) => l.detail)).toEqual([{ model: 'bedrock:anthropic.claude-test', dropped: 1 }]);
  });

  it('reads a model that writes text instead of calling the tool by the same rules', async () => {
    bedrock.on(ConverseCommand).resolves({
      output: {
        message: {
          role: 'assistant',
          content: [
            {
              text: '{"answer": "2.4 million euros [2]", "citations": [{"passage": 2, "quote": "2.4 million euros"}]}',
            },
          ],
        },
      },
      stopReason: 'end_turn',
      usage,
      metrics: { latencyMs: 1 },
      $metadata: {},
    });
    expect(await model().answer(request)).toMatchObject({
      reply: '2.4 million euros [2]',
      citations: [{ passage: 2, lines: [1] }],
    });
  });

  it('turns a tool input of another shape, or one cut at the token limit, into BackendUnavailableError', async () => {
    bedrock
      .on(ConverseCommand)
      .resolvesOnce(toolAnswer({ reply: 'x' }))
      .resolvesOnce(toolAnswer({}, 'max_tokens'));
    expect(await failureOf(model().answer(request))).toBeInstanceOf(BackendUnavailableError);
    const cut = await failureOf(model().answer(request));
    expect(cut).toBeInstanceOf(BackendUnavailableError);
    expect(cut!.message).toMatch(/token limit/);
  });

  it('maps throttling to BackendUnavailableError with a longer Retry-After, and every other failure too', async () => {
    bedrock
      .on(ConverseCommand)
      .rejects(new ThrottlingException({ message: 'slow down', $metadata: { httpStatusCode: 429 } }));
    const throttled = await failureOf(model().answer(request));
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled!.retryAfterSeconds).toBe(5);

    bedrock.reset();
    bedrock
      .on(ConverseCommand)
      .rejects(new ServiceUnavailableException({ message: 'down', $metadata: { httpStatusCode: 503 } }));
    const down = await failureOf(model().answer(request));
    expect(down).toBeInstanceOf(BackendUnavailableError);
    expect(down!.retryAfterSeconds).toBe(1);

    bedrock.reset();
    bedrock
      .on(ConverseCommand)
      .rejects(new AccessDeniedException({ message: 'model not enabled', $metadata: { httpStatusCode: 403 } }));
    const denied = await failureOf(model().answer(request));
    expect(denied).toBeInstanceOf(BackendUnavailableError);
    expect(denied!.retryAfterSeconds).toBe(30);
    expect(denied!.message).not.toMatch(/arn:|account/i);
  });
});

describe('BedrockChat, ConverseStream', () => {
  const ask = async () => {
    const deltas: string[] = [];
    const answer = await model().answer(request, { onDelta: (text) => deltas.push(text) });
    return { answer, deltas };
  };

  it("streams with the same forced tool, passes on the answer's text from the tool input's JSON pieces, and returns the validated answer", async () => {
    const text = '- Battery supplier [1]\n- Certification "in Japan" [1]';
    streams(
      toolStream({ answer: text, citations: [{ passage: 1, quote: 'A second risk is certification.' }] }, { size: 5 }),
    );
    const { answer, deltas } = await ask();

    expect(bedrock.commandCalls(ConverseCommand)).toHaveLength(0);
    const input = bedrock.commandCalls(ConverseStreamCommand)[0]!.args[0].input;
    expect(input.toolConfig!.toolChoice).toEqual({ tool: { name: 'answer_from_library' } });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(text);
    expect(answer).toEqual({
      reply: text,
      citations: [{ passage: 1, lines: [9], quote: 'A second risk is certification.' }],
      usage: { promptTokens: 210, completionTokens: 14 },
    });
  });

  it('streams nothing for a refusal, and a guardrail stop is no answer', async () => {
    streams(toolStream({ answer: null, citations: [] }, { size: 3 }));
    const refusal = await ask();
    expect(refusal.deltas).toEqual([]);
    expect(refusal.answer.reply).toBeNull();

    bedrock.reset();
    streams(
      toolStream(
        { answer: 'Blocked words [1]', citations: [{ passage: 1, quote: null }] },
        { stopReason: 'guardrail_intervened' },
      ),
    );
    expect((await ask()).answer).toMatchObject({ reply: null, citations: [] });
  });

  it('rejects at the end a streamed reply citing a passage it was not given', async () => {
    streams(toolStream({ answer: 'It rains [3]', citations: [{ passage: 3, quote: null }] }));
    const { answer, deltas } = await ask();
    expect(deltas.join('')).toBe('It rains [3]');
    expect(answer).toMatchObject({ reply: null, citations: [] });
    expect(logged[0]!.detail.reason).toBe('unknown_passage');
  });

  it('turns a tool input cut at the token limit into BackendUnavailableError', async () => {
    streams(
      toolStream(null, {
        raw: '{"answer": "- Battery supplier [1]", "citations": [{"passage": 1, "quo',
        stopReason: 'max_tokens',
      }),
    );
    const cut = await failureOf(ask());
    expect(cut).toBeInstanceOf(BackendUnavailableError);
    expect(cut!.message).toMatch(/token limit/);
  });

  it('maps exceptions reported in the stream, thrown while reading it, or at its start', async () => {
    const answer = { answer: '- Battery supplier [1]', citations: [{ passage: 1, quote: null }] };
    streams(
      toolStream(answer, {
        after: [{ throttlingException: { name: 'ThrottlingException', message: 'slow down' } } as never],
      }),
    );
    const throttled = await failureOf(ask());
    expect(throttled).toBeInstanceOf(BackendUnavailableError);
    expect(throttled!.retryAfterSeconds).toBe(5);

    bedrock.reset();
    streams(
      toolStream(answer, {
        after: [
          { modelStreamErrorException: { name: 'ModelStreamErrorException', message: 'the model failed' } } as never,
        ],
      }),
    );
    expect((await failureOf(ask()))!.retryAfterSeconds).toBe(1);

    bedrock.reset();
    streams(
      toolStream(answer).slice(0, 4),
      new ServiceUnavailableException({ message: 'down', $metadata: { httpStatusCode: 503 } }),
    );
    const broken = await failureOf(ask());
    expect(broken).toBeInstanceOf(BackendUnavailableError);
    expect(broken!.retryAfterSeconds).toBe(1);

    bedrock.reset();
    bedrock
      .on(ConverseStreamCommand)
      .rejects(new ThrottlingException({ message: 'slow down', $metadata: { httpStatusCode: 429 } }));
    expect((await failureOf(ask()))!.retryAfterSeconds).toBe(5);
  });
});
