import { Writable } from 'node:stream';
import { BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DynamoConversationStore } from '../../../lambdas/adapters/aws/dynamo-conversation-store.js';
import { DOCUMENTS_TABLE, TENANTS_TABLE, USAGE_TABLE } from '../../../lambdas/adapters/aws/table-schemas.js';
import type { ApiHandler } from '../../../lambdas/http/endpoint.js';
import { formatEvent } from '../../../lambdas/http/event-stream.js';
import { baseLogger } from '../../../lambdas/http/observability.js';
import { METRIC } from '../../../lambdas/wiring/aws/metric-names.js';
import { type LambdaStreamingRuntime, streamingHandler } from '../../../lambdas/wiring/aws/response-streaming.js';
import { startDynalite } from './local-aws.js';

/** The search index the chat entry wires: the local index in memory (OpenSearch needs a cluster), whose writes can be made to fail. */
const search = vi.hoisted(() => ({ failPuts: false }));
vi.mock('../../../lambdas/wiring/aws/opensearch.js', async () => {
  const { openDatabase } = await import('../../../lambdas/adapters/local/database.js');
  const { SqliteSearchIndex } = await import('../../../lambdas/adapters/local/sqlite-search-index.js');
  const { BackendUnavailableError } = await import('../../../lambdas/core/errors.js');
  const inner = new SqliteSearchIndex(openDatabase(':memory:'), 256, 'amazon.titan-embed-text-v2:0');
  const index = new Proxy(inner, {
    get(target, member) {
      if (member === 'put' && search.failPuts)
        return async () => {
          throw new BackendUnavailableError('index.put: search backend unavailable', 1);
        };
      const value = Reflect.get(target, member) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { searchIndex: () => index };
});

/**
 * Lambda response streaming (wiring/aws/response-streaming.ts) with a fake
 * of the Node.js runtime's `awslambda` global: its HttpResponseStream.from
 * writes the metadata prelude and the 8-byte delimiter before the body, as
 * the runtime does, so what API Gateway would read can be checked. Then the
 * chat function's own entry, on the stack's environment: DynamoDB on
 * dynalite, Bedrock's embeddings mocked, and the local index in place of
 * OpenSearch.
 */

/** What the function wrote to its response stream: the prelude API Gateway reads, the body, and whether it ended. */
class CollectedStream extends Writable {
  readonly chunks: Buffer[] = [];
  /** Milliseconds since the stream was made, for each chunk. */
  readonly times: number[] = [];
  private readonly born = performance.now();
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void) {
    this.chunks.push(Buffer.from(chunk));
    this.times.push(performance.now() - this.born);
    done();
  }
  get written() {
    const all = Buffer.concat(this.chunks);
    const delimiter = all.indexOf(Buffer.alloc(8));
    return {
      prelude: JSON.parse(all.subarray(0, delimiter).toString('utf8')) as {
        statusCode: number;
        headers: Record<string, string>;
      },
      body: all.subarray(delimiter + 8).toString('utf8'),
    };
  }
}

type Invoke = (event: APIGatewayProxyEvent, context: Context, stream?: CollectedStream) => Promise<CollectedStream>;

/** The runtime's `awslambda`, as far as the function uses it. */
const fakeRuntime = {
  streamifyResponse:
    (handler: (event: APIGatewayProxyEvent, stream: Writable, context: Context) => Promise<void>): Invoke =>
    async (event, context, stream = new CollectedStream()) => {
      await handler(event, stream, context);
      return stream;
    },
  HttpResponseStream: {
    from(stream: Writable, metadata: { statusCode: number; headers?: Record<string, string> }) {
      stream.write(JSON.stringify(metadata));
      stream.write(Buffer.alloc(8));
      return stream;
    },
  },
} satisfies LambdaStreamingRuntime;

const context = {
  awsRequestId: 'lambda-req',
  functionName: 'chat',
  getRemainingTimeInMillis: () => 29_000,
} as unknown as Context;
const event = (over: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent =>
  ({
    resource: '/v1/chat',
    httpMethod: 'POST',
    headers: {},
    queryStringParameters: null,
    pathParameters: null,
    body: null,
    isBase64Encoded: false,
    requestContext: { requestId: 'req_s' },
    ...over,
  }) as never;

async function* chunks(list: string[], gapMs = 0, log: string[] = []) {
  for (const chunk of list) {
    if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
    log.push(chunk);
    yield chunk;
  }
}

describe('streamingHandler (a fake awslambda runtime)', () => {
  it('writes a JSON answer whole behind its status and headers', async () => {
    const handler: ApiHandler = async () => ({
      statusCode: 201,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1', 'x-number': 3 as never },
      body: '{"ok":true}',
    });
    let after = 0;
    const invoke = streamingHandler(handler, { runtime: fakeRuntime, afterStream: () => void (after += 1) }) as Invoke;
    const { prelude, body } = (await invoke(event(), context)).written;
    expect(prelude).toEqual({
      statusCode: 201,
      headers: { 'content-type': 'application/json', 'x-request-id': 'req_1', 'x-number': '3' },
    });
    expect(body).toBe('{"ok":true}');
    expect(after).toBe(1);
  });

  it('writes a streamed answer chunk by chunk as it comes, and ends it', async () => {
    const handler: ApiHandler = async () => ({
      statusCode: 200,
      headers: { 'content-type': 'text/event-stream; charset=utf-8' },
      body: '',
      stream: chunks(['a', 'b', 'c'], 20),
    });
    const stream = await (streamingHandler(handler, { runtime: fakeRuntime }) as Invoke)(event(), context);
    expect(stream.written).toEqual({
      prelude: { statusCode: 200, headers: { 'content-type': 'text/event-stream; charset=utf-8' } },
      body: 'abc',
    });
    expect(stream.writableFinished).toBe(true);
    // Each chunk went out when it came (20 ms apart), not all at the end.
    const [a, , c] = stream.times.slice(2);
    expect(c! - a!).toBeGreaterThanOrEqual(30);
  });

  it('decodes a base64 body, and answers the contract 500 when the handler itself throws', async () => {
    const bytes = await (
      streamingHandler(
        async () => ({
          statusCode: 200,
          headers: {},
          body: Buffer.from('bytes \u00ff').toString('base64'),
          isBase64Encoded: true,
        }),
        { runtime: fakeRuntime },
      ) as Invoke
    )(event(), context);
    expect(bytes.written.body).toBe('bytes \u00ff');
    const broken = await (
      streamingHandler(
        async () => {
          throw new Error('boom: internal detail');
        },
        { runtime: fakeRuntime },
      ) as Invoke
    )(event(), context);
    expect(broken.written.prelude.statusCode).toBe(500);
    expect(JSON.parse(broken.written.body)).toEqual({
      error: { code: 'internal_error', message: 'internal error; nothing half-written was kept', request_id: 'req_s' },
    });
  });

  it('reads a stream to its end when the client has gone (the work behind it completes), then runs afterStream', async () => {
    const produced: string[] = [];
    let after = 0;
    const handler: ApiHandler = async () => ({
      statusCode: 200,
      headers: {},
      body: '',
      stream: chunks(['one', 'two', 'three'], 5, produced),
    });
    const gone = new CollectedStream();
    const original = gone.write.bind(gone);
    // The client leaves after the first chunk: the stream is destroyed under the function.
    gone.write = ((chunk: never, ...rest: never[]) => {
      const ok = original(chunk, ...rest);
      if (String(chunk) === 'one') gone.destroy();
      return ok;
    }) as typeof gone.write;
    await (streamingHandler(handler, { runtime: fakeRuntime, afterStream: () => void (after += 1) }) as Invoke)(
      event(),
      context,
      gone,
    );
    expect(produced).toEqual(['one', 'two', 'three']);
    expect(after).toBe(1);
  });

  it('is the handler itself outside the Lambda runtime (no awslambda, or the empty one the AWS SDK makes)', () => {
    const handler: ApiHandler = async () => ({ statusCode: 200, body: '' });
    const global = globalThis as { awslambda?: unknown };
    const before = global.awslambda;
    try {
      for (const runtime of [undefined, {}, { InvokeStore: {} }, { streamifyResponse: () => undefined }]) {
        global.awslambda = runtime;
        expect(streamingHandler(handler)).toBe(handler);
      }
      global.awslambda = fakeRuntime;
      expect(streamingHandler(handler)).not.toBe(handler);
    } finally {
      global.awslambda = before;
    }
  });
});

describe('the chat function entry, streaming through a fake awslambda', () => {
  let dynamo: Awaited<ReturnType<typeof startDynalite>>;
  let documentsTable: string;
  const bedrock = mockClient(BedrockRuntimeClient);
  let invoke: Invoke;

  beforeAll(async () => {
    dynamo = await startDynalite();
    documentsTable = await dynamo.createTable(DOCUMENTS_TABLE);
    bedrock.on(InvokeModelCommand).callsFake((input) => {
      const { inputText } = JSON.parse(input.body as string) as { inputText: string };
      const embedding = Array.from({ length: 256 }, (_, i) => (i === inputText.length % 256 ? 1 : 0));
      return { body: new TextEncoder().encode(JSON.stringify({ embedding, inputTextTokenCount: 7 })) as never };
    });
    Object.assign(process.env, {
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: await dynamo.endpoint(),
      POWERTOOLS_TRACE_ENABLED: 'false',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LIBRARY_VERSION: '1.2.3',
      LIBRARY_TENANTS_TABLE: await dynamo.createTable(TENANTS_TABLE),
      LIBRARY_DOCUMENTS_TABLE: documentsTable,
      LIBRARY_USAGE_TABLE: await dynamo.createTable(USAGE_TABLE),
      LIBRARY_BLOB_BUCKET: 'blobs',
      LIBRARY_SEARCH_ENDPOINT: 'https://search.invalid',
      LIBRARY_SEARCH_INDEX_PREFIX: 'library',
      LIBRARY_EMBEDDING_MODEL_ID: 'amazon.titan-embed-text-v2:0',
      LIBRARY_EMBEDDING_DIMENSIONS: '256',
      LIBRARY_CHAT_MODEL_ID: 'anthropic.claude-3-haiku-20240307-v1:0',
      LIBRARY_INGEST_QUEUE_URL: 'https://sqs.invalid/q',
      LIBRARY_INLINE_MAX_BYTES: '1048576',
      LIBRARY_CORS_ORIGINS: 'https://app.example.com',
    });
    // The runtime's global exists before the entry is loaded, as in Lambda.
    (globalThis as { awslambda?: unknown }).awslambda = fakeRuntime;
    invoke = (await import('../../../lambdas/endpoints/chat/index.js')).handler as unknown as Invoke;
  });
  afterAll(async () => {
    delete (globalThis as { awslambda?: unknown }).awslambda;
    bedrock.restore();
    await dynamo?.close();
  });

  const ask = (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    invoke(
      event({
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
        requestContext: {
          requestId: `req_${Math.random().toString(36).slice(2)}`,
          authorizer: { tenantId: 'ten_stream' },
        } as never,
      }),
      context,
    );

  it('answers JSON through the stream when no stream is asked, with the conversation it began', async () => {
    const { prelude, body } = (await ask({ question: 'Where did I park the car?', end_user_id: 'ann' })).written;
    expect(prelude.statusCode).toBe(200);
    expect(prelude.headers['content-type']).toMatch(/^application\/json/);
    const response = JSON.parse(body);
    expect(response).toMatchObject({
      sources: [],
      reply: expect.stringMatching(/does not hold the answer/),
      conversation_id: expect.stringMatching(/^cnv_/),
    });
    // The turn is in DynamoDB, in ann's library.
    const ann = { tenantId: 'ten_stream', endUserId: 'ann' };
    const generation = await (await import('../../../lambdas/wiring/aws/dynamo.js'))
      .documentStore()
      .libraryGeneration(ann);
    const turns = await new DynamoConversationStore(dynamo.client, documentsTable).recentTurns(
      ann,
      response.conversation_id,
      generation!,
      10,
    );
    expect(turns).toMatchObject([
      { question: 'Where did I park the car?', reply: response.reply, runId: response.run_id },
    ]);
  });

  it('streams start, the reply and done for a follow-up in that conversation; the metrics are published after the stream', async () => {
    const first = JSON.parse((await ask({ question: 'Where did I park the car?', end_user_id: 'ann' })).written.body);
    baseLogger.setLogLevel('INFO');
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }) as typeof process.stdout.write;
    let stream: CollectedStream;
    try {
      stream = await ask(
        { question: 'And when was that?', end_user_id: 'ann', conversation_id: first.conversation_id },
        { accept: 'text/event-stream', origin: 'https://app.example.com' },
      );
    } finally {
      process.stdout.write = write;
      baseLogger.setLogLevel('SILENT');
    }
    const { prelude, body } = stream.written;
    expect(prelude.statusCode).toBe(200);
    // The function's own headers, the CORS ones its middleware adds included, go first.
    expect(prelude.headers).toMatchObject({
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'access-control-allow-origin': 'https://app.example.com',
      'x-request-id': expect.stringMatching(/^req_/),
      // JSON or a stream by Accept, and the CORS answer by Origin: one list, neither written over.
      vary: 'Accept, Origin',
    });
    const events = body
      .split('\n\n')
      .filter(Boolean)
      .map((block) => block.split('\n')[0]);
    expect(events).toEqual(['event: start', 'event: delta', 'event: done']);
    const done = JSON.parse(body.split('\n\n').filter(Boolean).at(-1)!.split('\n')[1]!.slice('data: '.length));
    expect(done).toMatchObject({ conversation_id: first.conversation_id, sources: [] });
    expect(body.startsWith(formatEvent('start', { run_id: done.run_id, conversation_id: first.conversation_id }))).toBe(
      true,
    );
    // The chat's charge was counted while the stream ran; its metrics line comes once the stream is written.
    const metricsLines = written.filter((line) => line.includes(METRIC.chatCalls));
    expect(metricsLines.length).toBeGreaterThan(0);
    const access = written.find((line) => line.includes('"message":"access"'));
    expect(access).toBeTruthy();
    expect(JSON.parse(access!)).toMatchObject({ status: 200, route: 'POST /v1/chat' });
  });

  it('answers a failure before the stream starts as JSON: an unknown conversation is 404, another tenant cannot continue one', async () => {
    const first = JSON.parse((await ask({ question: 'Where did I park the car?', end_user_id: 'ann' })).written.body);
    const unknown = (
      await ask(
        { question: 'And then?', end_user_id: 'ann', conversation_id: 'cnv_01JD7ZQ8W3M4X9N2B5C6V7K8P3' },
        { accept: 'text/event-stream' },
      )
    ).written;
    expect(unknown.prelude.statusCode).toBe(404);
    expect(unknown.prelude.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(unknown.body).error.code).toBe('not_found');
    const theirs = await invoke(
      event({
        body: JSON.stringify({ question: 'And then?', end_user_id: 'ann', conversation_id: first.conversation_id }),
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        requestContext: { requestId: 'req_other', authorizer: { tenantId: 'ten_other' } } as never,
      }),
      context,
    );
    expect(theirs.written.prelude.statusCode).toBe(404);
    const invalid = (await ask({ question: 'x', conversation_id: 'nope' }, { accept: 'text/event-stream' })).written;
    expect(invalid.prelude.statusCode).toBe(422);
    expect(JSON.parse(invalid.body).error.message).toMatch(/^conversation_id: /);
  });

  it('ends a started stream with an error event when storing fails, and keeps no turn of it', async () => {
    const first = JSON.parse((await ask({ question: 'Where did I park the car?', end_user_id: 'bob' })).written.body);
    search.failPuts = true;
    let stream: CollectedStream;
    try {
      stream = await ask(
        { question: 'And when was that?', end_user_id: 'bob', conversation_id: first.conversation_id },
        { accept: 'text/event-stream' },
      );
    } finally {
      search.failPuts = false;
    }
    const { prelude, body } = stream.written;
    expect(prelude.statusCode).toBe(200);
    expect(body).toContain('event: start\n');
    expect(body).not.toContain('event: done');
    const last = body.split('\n\n').filter(Boolean).at(-1)!;
    expect(last.split('\n')[0]).toBe('event: error');
    expect(JSON.parse(last.split('\n')[1]!.slice('data: '.length)).error).toMatchObject({ code: 'unavailable' });
    // Only the first turn is kept: the failed chat's turn was taken back.
    const generation = await (await import('../../../lambdas/wiring/aws/dynamo.js'))
      .documentStore()
      .libraryGeneration({ tenantId: 'ten_stream', endUserId: 'bob' });
    const turns = await new DynamoConversationStore(dynamo.client, documentsTable).recentTurns(
      { tenantId: 'ten_stream', endUserId: 'bob' },
      first.conversation_id,
      generation!,
      10,
    );
    expect(turns.map((t) => t.question)).toEqual(['Where did I park the car?']);
  });
});
