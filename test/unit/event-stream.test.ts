import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import type { ChatOptions, ChatResponse } from '../../lambdas/core/chat/chat-service.js';
import { BackendUnavailableError, notFound } from '../../lambdas/core/errors.js';
import type { LibraryRef } from '../../lambdas/core/model.js';
import { createHandler } from '../../lambdas/endpoints/chat/handler.js';
import type { ApiResult } from '../../lambdas/http/endpoint.js';
import { eventStream, formatEvent, prefersEventStream } from '../../lambdas/http/event-stream.js';

/** Server-sent events (http/event-stream.ts) and the chat endpoint's negotiation, without a server. */

async function drain(stream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk;
  return text;
}

const RESPONSE: ChatResponse = {
  reply: 'Level 3 [1].',
  artifacts: [],
  sources: [
    {
      kind: 'file',
      title: 'parking',
      snippet: '1: Level 3.',
      file_id: 'file_1',
      metadata: {},
      markers: [{ marker: 1, lines: [1] }],
    },
  ],
  tokens_used: 12,
  run_id: 'run_01JD7ZQ8W3M4X9N2B5C6V7K8P2',
  conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3',
};

/** A chat service that begins, writes its reply in two pieces and answers; or fails where told. */
function fakeChat(fail?: { before?: Error; after?: Error }) {
  const calls: Array<{ ref: LibraryRef; question: string; options: ChatOptions }> = [];
  return {
    calls,
    chat: {
      async chat(ref: LibraryRef, question: string, options: ChatOptions = {}) {
        calls.push({ ref, question, options });
        if (fail?.before) throw fail.before;
        options.onStart?.({ run_id: RESPONSE.run_id, conversation_id: RESPONSE.conversation_id });
        options.onDelta?.('Level 3');
        if (fail?.after) throw fail.after;
        options.onDelta?.(' [1].');
        return RESPONSE;
      },
    } as never,
  };
}

const context = {
  awsRequestId: 'r',
  functionName: 'chat',
  getRemainingTimeInMillis: () => 29_000,
} as unknown as Context;
const post = (body: unknown, headers: Record<string, string> = {}): APIGatewayProxyEvent =>
  ({
    resource: '/v1/chat',
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    isBase64Encoded: false,
    queryStringParameters: null,
    pathParameters: null,
    requestContext: { requestId: 'req_stream', authorizer: { tenantId: 'ten_1' } },
  }) as never;

describe('Accept negotiation (prefersEventStream)', () => {
  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['application/json', false],
    ['text/event-stream, application/json', false],
    ['text/event-stream;q=0.9, application/json', false],
    ['application/*, text/event-stream;q=0.5', false],
    ['text/event-stream;q=0', false],
    ['text/html', false],
    ['garbage', false],
    ['text/event-stream', true],
    ['Text/Event-Stream', true],
    ['application/json;q=0.1, text/event-stream', true],
    ['text/*', true],
    ['text/event-stream; charset=utf-8', true],
    ['text/event-stream;q=0.4, */*;q=0.1', true],
  ])('%s → %s', (accept, stream) => {
    expect(prefersEventStream(accept)).toBe(stream);
  });
});

describe('eventStream', () => {
  it('writes each event as one data line of JSON (line breaks escaped)', () => {
    expect(formatEvent('delta', { text: 'two\nlines\r\u2028' })).toBe(
      'event: delta\ndata: {"text":"two\\nlines\\r\u2028"}\n\n',
    );
  });

  it('throws a failure that comes before the first event: the endpoint answers it as usual', async () => {
    await expect(
      eventStream('req_1', async () => {
        throw new BackendUnavailableError('down', 3);
      }),
    ).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('ends with an error event, the contract body, for a failure after the first event', async () => {
    const result = await eventStream('req_2', async (sink) => {
      sink.send('start', { run_id: 'run_x' });
      await new Promise((r) => setTimeout(r, 5));
      throw new BackendUnavailableError('down', 3);
    });
    expect(result).toMatchObject({ status: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
    const text = await drain(result.stream!);
    expect(text).toBe(
      `${formatEvent('start', { run_id: 'run_x' })}${formatEvent('error', { error: { code: 'unavailable', message: 'a backend is unavailable; safe to retry', request_id: 'req_2', retry_after: 3 } })}`,
    );
    const bug = await eventStream('req_3', async (sink) => {
      sink.send('start', {});
      throw new TypeError('a bug, with a secret table name');
    });
    const body = await drain(bug.stream!);
    expect(body).toContain('"code":"internal_error"');
    expect(body).not.toContain('secret');
  });

  it('sends a comment while nothing happens, and stops sending once it has ended', async () => {
    const result = await eventStream(
      'req_4',
      async (sink) => {
        sink.send('start', {});
        await new Promise((r) => setTimeout(r, 130));
        sink.send('done', {});
      },
      { heartbeatMs: 40 },
    );
    const text = await drain(result.stream!);
    expect(text.startsWith(formatEvent('start', {}))).toBe(true);
    expect(text.endsWith(formatEvent('done', {}))).toBe(true);
    expect(text.split(': keep-alive\n\n').length - 1).toBeGreaterThanOrEqual(2);
  });

  it('runs its work to the end when the reader leaves early', async () => {
    let finished = false;
    const result = await eventStream('req_5', async (sink) => {
      sink.send('start', {});
      await new Promise((r) => setTimeout(r, 30));
      sink.send('delta', { text: 'late' });
      finished = true;
    });
    for await (const chunk of result.stream!) {
      expect(chunk).toContain('start');
      break;
    }
    await new Promise((r) => setTimeout(r, 60));
    expect(finished).toBe(true);
  });
});

describe('POST /v1/chat: one endpoint, JSON or a stream', () => {
  it('answers JSON by default, with the conversation sent through', async () => {
    const fake = fakeChat();
    const result = (await createHandler({ chat: fake.chat })(
      post({ question: 'Where?', end_user_id: 'ann', conversation_id: RESPONSE.conversation_id }),
      context,
    )) as ApiResult;
    expect(result.statusCode).toBe(200);
    expect(result.stream).toBeUndefined();
    expect(JSON.parse(result.body)).toEqual(RESPONSE);
    expect(fake.calls[0]).toMatchObject({
      ref: { tenantId: 'ten_1', endUserId: 'ann' },
      question: 'Where?',
      options: { conversationId: RESPONSE.conversation_id },
    });
    expect(fake.calls[0]!.options.onStart).toBeUndefined();
  });

  it('streams start, deltas and done when asked, with the request id', async () => {
    const result = (await createHandler({ chat: fakeChat().chat })(
      post({ question: 'Where?' }, { Accept: 'text/event-stream' }),
      context,
    )) as ApiResult;
    expect(result.statusCode).toBe(200);
    expect(result.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'x-request-id': 'req_stream',
    });
    expect(await drain(result.stream!)).toBe(
      formatEvent('start', { run_id: RESPONSE.run_id, conversation_id: RESPONSE.conversation_id }) +
        formatEvent('delta', { text: 'Level 3' }) +
        formatEvent('delta', { text: ' [1].' }) +
        formatEvent('done', RESPONSE),
    );
  });

  it('answers a failure before the start as JSON (404 for an unknown conversation), one after it as an error event', async () => {
    const before = (await createHandler({ chat: fakeChat({ before: notFound('conversation cnv_x not found') }).chat })(
      post({ question: 'Where?' }, { accept: 'text/event-stream' }),
      context,
    )) as ApiResult;
    expect(before.statusCode).toBe(404);
    expect(before.stream).toBeUndefined();
    expect(before.headers?.['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(before.body).error).toEqual({
      code: 'not_found',
      message: 'conversation cnv_x not found',
      request_id: 'req_stream',
    });

    const after = (await createHandler({ chat: fakeChat({ after: new BackendUnavailableError('down', 2) }).chat })(
      post({ question: 'Where?' }, { accept: 'text/event-stream' }),
      context,
    )) as ApiResult;
    expect(after.statusCode).toBe(200);
    const events = await drain(after.stream!);
    expect(
      events.endsWith(
        formatEvent('error', {
          error: {
            code: 'unavailable',
            message: 'a backend is unavailable; safe to retry',
            request_id: 'req_stream',
            retry_after: 2,
          },
        }),
      ),
    ).toBe(true);
    expect(events).not.toContain('event: done');
  });
});
