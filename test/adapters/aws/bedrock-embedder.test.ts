import { BedrockRuntimeClient, InvokeModelCommand, ThrottlingException } from '@aws-sdk/client-bedrock-runtime';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { BedrockEmbedder } from '../../../lambdas/adapters/aws/bedrock-embedder.js';
import { BackendUnavailableError } from '../../../lambdas/core/errors.js';

const bedrock = mockClient(BedrockRuntimeClient);
const MODEL = 'amazon.titan-embed-text-v2:0';
const reply = (embedding: number[], tokens = 3) => ({
  body: new TextEncoder().encode(JSON.stringify({ embedding, inputTextTokenCount: tokens })) as never,
});
const inputsOf = () => bedrock.commandCalls(InvokeModelCommand).map((c) => JSON.parse(c.args[0].input.body as string));

describe('BedrockEmbedder (Titan Text Embeddings v2)', () => {
  beforeEach(() => bedrock.reset());

  it('asks the configured model for normalized vectors of the configured size, one text per call, in order', async () => {
    bedrock.on(InvokeModelCommand).callsFake((input) => {
      const { inputText } = JSON.parse(input.body as string) as { inputText: string };
      return reply(Array.from({ length: 256 }, (_, i) => (i === inputText.length ? 1 : 0)));
    });
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' }), {
      modelId: MODEL,
      dimensions: 256,
      concurrency: 3,
    });
    const { vectors, tokens } = await embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee'], 'passage');
    expect(vectors.map((v) => v.indexOf(1))).toEqual([1, 2, 3, 4, 5]);
    expect(vectors[0]).toBeInstanceOf(Float32Array);
    const calls = bedrock.commandCalls(InvokeModelCommand);
    expect(calls).toHaveLength(5);
    expect(
      calls.every((c) => c.args[0].input.modelId === MODEL && c.args[0].input.contentType === 'application/json'),
    ).toBe(true);
    expect(inputsOf()[0]).toEqual({ inputText: 'a', dimensions: 256, normalize: true });
    expect(tokens).toBe(15); // Titan's inputTextTokenCount (3 a text), summed over the call
    expect(embedder).toMatchObject({ name: MODEL, dimensions: 256 });
  });

  it('turns throttling into BackendUnavailableError (retryable)', async () => {
    bedrock.on(InvokeModelCommand).rejects(new ThrottlingException({ message: 'slow down', $metadata: {} }));
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1', maxAttempts: 1 }), {
      modelId: MODEL,
      dimensions: 1024,
    });
    await expect(embedder.embed(['x'], 'query')).rejects.toBeInstanceOf(BackendUnavailableError);
  });

  it('refuses a vector of the wrong size and a dimension Titan v2 does not offer', async () => {
    bedrock.on(InvokeModelCommand).resolves(reply([0.5, 0.5]));
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' }), {
      modelId: MODEL,
      dimensions: 512,
    });
    await expect(embedder.embed(['x'], 'query')).rejects.toThrow(/512-dimension/);
    expect(
      () =>
        new BedrockEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1' }), {
          modelId: MODEL,
          dimensions: 768 as never,
        }),
    ).toThrow(/256, 512, 1024/);
  });
});

describe('BedrockEmbedder under throttling', () => {
  beforeEach(() => bedrock.reset());

  it('starts no new call once one is throttled, waits for those in flight, and says how long to wait', async () => {
    let calls = 0;
    bedrock.on(InvokeModelCommand).callsFake(async () => {
      calls += 1;
      if (calls === 2) throw new ThrottlingException({ message: 'slow down', $metadata: { httpStatusCode: 429 } });
      await new Promise((r) => setTimeout(r, 5));
      return reply(Array.from({ length: 256 }, (_, i) => (i === 0 ? 1 : 0)));
    });
    const embedder = new BedrockEmbedder(new BedrockRuntimeClient({ region: 'eu-west-1', maxAttempts: 1 }), {
      modelId: MODEL,
      dimensions: 256,
      concurrency: 2,
    });
    const error = await embedder
      .embed(
        Array.from({ length: 10 }, (_, i) => `text ${i}`),
        'passage',
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BackendUnavailableError);
    expect((error as BackendUnavailableError).retryAfterSeconds).toBeGreaterThanOrEqual(2);
    const settled = calls;
    await new Promise((r) => setTimeout(r, 20));
    expect(calls).toBe(settled); // nothing was still running after embed() answered
    expect(calls).toBeLessThanOrEqual(3);
  });
});
