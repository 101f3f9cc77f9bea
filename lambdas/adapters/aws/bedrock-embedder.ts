import { type BedrockRuntimeClient, InvokeModelCommand } from '@aws-sdk/client-bedrock-runtime';
import type { Embedder, Embedding } from '../../core/ports.js';
import { callAws } from './errors.js';

/** Titan Text Embeddings v2 accepts 256, 512 or 1024 dimensions. */
export const TITAN_V2_DIMENSIONS = [256, 512, 1024] as const;
export type TitanDimensions = (typeof TITAN_V2_DIMENSIONS)[number];

/** Titan v2 reads at most 8,192 tokens (about 50,000 characters) per call. */
const MAX_INPUT_CHARS = 50_000;

export interface BedrockEmbedderOptions {
  modelId: string;
  dimensions: TitanDimensions;
  /** Calls in flight at once for one embed(); Titan v2 embeds one text per call. */
  concurrency?: number;
}

/**
 * The Embedder port on Amazon Bedrock, Titan Text Embeddings v2 with
 * normalized output (unit vectors, so inner product is cosine). Throttling
 * (ThrottlingException) and transient faults become BackendUnavailableError
 * with a retryAfterSeconds hint (errors.ts), which the ingest worker backs off on.
 * The tokens of a call are the sum of Titan's inputTextTokenCount for its texts.
 */
export class BedrockEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  private readonly concurrency: number;

  constructor(
    private readonly client: BedrockRuntimeClient,
    private readonly options: BedrockEmbedderOptions,
  ) {
    if (!TITAN_V2_DIMENSIONS.includes(options.dimensions)) {
      throw new Error(
        `Titan v2 dimensions must be one of ${TITAN_V2_DIMENSIONS.join(', ')}, not ${options.dimensions}`,
      );
    }
    this.name = options.modelId;
    this.dimensions = options.dimensions;
    this.concurrency = Math.max(1, options.concurrency ?? 8);
  }

  /** Titan v2 embeds queries and passages alike; the purpose is accepted and not needed. */
  async embed(texts: readonly string[], _purpose?: 'query' | 'passage'): Promise<Embedding> {
    const out = new Array<Float32Array>(texts.length);
    let tokens = 0;
    let next = 0;
    let failure: { error: unknown } | null = null;
    const worker = async () => {
      // After a failure (a throttle, most often) no new call starts: the caller backs off and retries the whole step.
      while (next < texts.length && !failure) {
        const i = next++;
        try {
          const one = await this.embedOne(texts[i]!);
          out[i] = one.vector;
          tokens += one.tokens;
        } catch (error) {
          failure ??= { error };
        }
      }
    };
    // Every call settles before embed() answers, so none outlives it (a retry never overlaps its own calls).
    await Promise.all(Array.from({ length: Math.min(this.concurrency, texts.length) }, worker));
    if (failure) throw (failure as { error: unknown }).error;
    return { vectors: out, tokens };
  }

  private async embedOne(text: string): Promise<{ vector: Float32Array; tokens: number }> {
    const input = text.trim() ? text.slice(0, MAX_INPUT_CHARS) : '.';
    const response = await callAws('embedder.embed', () =>
      this.client.send(
        new InvokeModelCommand({
          modelId: this.options.modelId,
          contentType: 'application/json',
          accept: 'application/json',
          body: JSON.stringify({ inputText: input, dimensions: this.options.dimensions, normalize: true }),
        }),
      ),
    );
    const parsed = JSON.parse(new TextDecoder().decode(response.body)) as {
      embedding?: number[];
      inputTextTokenCount?: number;
    };
    if (!Array.isArray(parsed.embedding) || parsed.embedding.length !== this.dimensions) {
      throw new Error(`embedder.embed: ${this.options.modelId} returned no ${this.dimensions}-dimension embedding`);
    }
    return { vector: Float32Array.from(parsed.embedding), tokens: parsed.inputTextTokenCount ?? 0 };
  }
}
