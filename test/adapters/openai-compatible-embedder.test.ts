import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { countTokens } from '../../lambdas/adapters/local/o200k-tokens.js';
import { OpenAiCompatibleEmbedder } from '../../lambdas/adapters/local/openai-compatible-embedder.js';
import { BackendUnavailableError } from '../../lambdas/core/errors.js';
import { type EmbeddingsServer, startEmbeddingsServer } from '../support/embeddings-server.js';

const servers: EmbeddingsServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(options: Parameters<typeof startEmbeddingsServer>[0] = {}) {
  const server = await startEmbeddingsServer(options);
  servers.push(server);
  return server;
}

const norm = (v: ArrayLike<number>) => Math.hypot(...Array.from(v));
const cosine = (a: ArrayLike<number>, b: ArrayLike<number>) =>
  Array.from(a).reduce((s, x, i) => s + x * b[i]!, 0) / (norm(a) * norm(b));

async function failureOf(promise: Promise<unknown>): Promise<BackendUnavailableError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BackendUnavailableError);
  return error as BackendUnavailableError;
}

describe('OpenAiCompatibleEmbedder', () => {
  it('learns the dimensions from a probe, posts {model, input} with the key, and returns unit vectors in order with the reported tokens', async () => {
    const server = await serve({ apiKey: 'secret', dimensions: 24 });
    const embedder = await OpenAiCompatibleEmbedder.start({ url: server.url, model: server.model, apiKey: 'secret' });
    expect(embedder).toMatchObject({ name: 'openai-compatible:test-embed', dimensions: 24 });
    const texts = [
      'The heron nests by the lake.',
      'Quarterly revenue grew.',
      'A third text, longer than the others are.',
    ];
    const { vectors, tokens } = await embedder.embed(texts, 'passage');
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe('/v1/embeddings');
    expect(sent.headers.authorization).toBe('Bearer secret');
    expect(sent.body).toEqual({ model: 'test-embed', input: texts, encoding_format: 'float' });
    expect(vectors).toHaveLength(3);
    vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(vector).toHaveLength(24);
      expect(norm(vector)).toBeCloseTo(1, 5); // the server's are not unit length
      expect(cosine(vector, server.rawVector(texts[i]!))).toBeCloseTo(1, 5); // the server answered in reverse: placed by index
    });
    expect(tokens).toBe(texts.reduce((sum, t) => sum + server.tokensOf(t), 0));
  });

  it('accepts the URL with or without /v1/embeddings, sends at most maxBatch texts a request, and sums their tokens', async () => {
    const server = await serve();
    const embedder = await OpenAiCompatibleEmbedder.start({
      url: `${server.url}/embeddings/`,
      model: server.model,
      maxBatch: 2,
    });
    const before = server.requests.length;
    const { vectors, tokens } = await embedder.embed(
      ['one', 'two words', 'three more words', 'four', 'five'],
      'passage',
    );
    expect(vectors).toHaveLength(5);
    expect(server.requests.slice(before).map((r) => r.body.input)).toEqual([
      ['one', 'two words'],
      ['three more words', 'four'],
      ['five'],
    ]);
    expect(tokens).toBe(8);
    expect(server.requests.every((r) => r.path === '/v1/embeddings' && !r.headers.authorization)).toBe(true);
    expect(await embedder.embed([], 'query')).toEqual({ vectors: [], tokens: 0 });
  });

  it('puts the configured prefixes before queries and passages, and sends an empty text as "."', async () => {
    const server = await serve();
    const embedder = await OpenAiCompatibleEmbedder.start({
      url: server.url,
      model: server.model,
      queryPrefix: 'search_query: ',
      passagePrefix: 'search_document: ',
    });
    await embedder.embed(['when do herons nest'], 'query');
    expect(server.requests.at(-1)!.body.input).toEqual(['search_query: when do herons nest']);
    await embedder.embed(['herons nest in spring', '  '], 'passage');
    expect(server.requests.at(-1)!.body.input).toEqual([
      'search_document: herons nest in spring',
      'search_document: .',
    ]);
  });

  it('counts tokens with o200k_base when the server reports no usage', async () => {
    const server = await serve({ reportUsage: false });
    const embedder = await OpenAiCompatibleEmbedder.start({ url: server.url, model: server.model });
    const { tokens } = await embedder.embed(['Tokens counted here, since the server is silent.'], 'passage');
    expect(tokens).toBe(await countTokens('Tokens counted here, since the server is silent.'));
  });

  it('turns 500, 429, a hang, a refused connection and a malformed answer into BackendUnavailableError (retryable)', async () => {
    const server = await serve();
    const embedder = await OpenAiCompatibleEmbedder.start({ url: server.url, model: server.model, timeoutMs: 300 });

    server.mode = 'error500';
    expect((await failureOf(embedder.embed(['x'], 'passage'))).message).toBe('the embedding server answered HTTP 500');
    server.mode = 'throttle';
    const throttled = await failureOf(embedder.embed(['x'], 'passage'));
    expect(throttled.message).toBe('the embedding server answered HTTP 429');
    expect(throttled.retryAfterSeconds).toBe(3);
    server.mode = 'malformed';
    expect((await failureOf(embedder.embed(['x'], 'passage'))).message).toBe(
      'the embedding server sent a malformed answer',
    );
    server.mode = 'wrong-count';
    expect((await failureOf(embedder.embed(['x', 'y'], 'passage'))).message).toMatch(
      /malformed answer: 2 embeddings expected, got 1/,
    );
    server.mode = 'hang';
    const started = Date.now();
    expect((await failureOf(embedder.embed(['x'], 'query'))).message).toBe('the embedding server did not answer');
    expect(Date.now() - started).toBeLessThan(2_000);

    server.mode = 'ok';
    expect((await embedder.embed(['fine again'], 'passage')).vectors).toHaveLength(1);
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    expect((await failureOf(embedder.embed(['x'], 'passage'))).message).toBe('the embedding server did not answer');
  });

  it('says what the server objected to on another 4xx (a wrong model, a wrong key)', async () => {
    const server = await serve({ apiKey: 'right' });
    const embedder = await OpenAiCompatibleEmbedder.start({ url: server.url, model: server.model, apiKey: 'right' });
    const wrongKey = await OpenAiCompatibleEmbedder.start({
      url: server.url,
      model: server.model,
      apiKey: 'wrong',
    }).catch((e: Error) => e);
    expect((wrongKey as Error).message).toMatch(
      /could not embed a probe: the embedding server answered HTTP 401: invalid api key/,
    );
    const wrongModel = await OpenAiCompatibleEmbedder.start({
      url: server.url,
      model: 'nomic-embed-txt',
      apiKey: 'right',
    }).catch((e: Error) => e);
    expect((wrongModel as Error).message).toContain(
      'HTTP 404: model "nomic-embed-txt" not found, try pulling it first',
    );
    expect((wrongModel as Error).message).toContain('unset LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL');
    expect(embedder.dimensions).toBe(48);
  });

  it('refuses to start when nothing listens, naming the URL', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const error = await OpenAiCompatibleEmbedder.start({ url: `http://127.0.0.1:${port}/v1`, model: 'm' }).catch(
      (e: Error) => e,
    );
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the embedding server at http://127.0.0.1:${port}/v1/embeddings \\(model m\\) could not embed a probe: the embedding server did not answer`,
      ),
    );
  });

  it('starts degraded with the dimensions a data folder recorded when the server is down, and works once it is back', async () => {
    const server = await serve();
    server.mode = 'error500';
    const failures: Error[] = [];
    const embedder = await OpenAiCompatibleEmbedder.start(
      { url: server.url, model: server.model, healthTtlMs: 0 },
      { knownDimensions: 48, onProbeFailed: (e) => failures.push(e) },
    );
    expect(embedder.dimensions).toBe(48);
    expect(failures.map((e) => e.message)).toEqual(['the embedding server answered HTTP 500']);
    expect((await embedder.health()).state).toBe('degraded');
    await failureOf(embedder.embed(['x'], 'passage'));
    server.mode = 'ok';
    expect((await embedder.embed(['back again'], 'passage')).vectors[0]).toHaveLength(48);
  });

  it('reports degraded health while the server cannot embed, ok again once it can', async () => {
    const server = await serve();
    const embedder = await OpenAiCompatibleEmbedder.start({ url: server.url, model: server.model, healthTtlMs: 0 });
    expect(await embedder.health()).toEqual({ state: 'ok', detail: null });
    server.mode = 'error500';
    expect(await embedder.health()).toMatchObject({
      state: 'degraded',
      detail: 'the embedding server answered HTTP 500',
    });
    server.mode = 'ok';
    expect((await embedder.health()).state).toBe('ok');
  });
});
