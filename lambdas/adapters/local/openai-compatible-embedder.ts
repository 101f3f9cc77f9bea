import { BackendUnavailableError } from '../../core/errors.js';
import type { Embedder, Embedding } from '../../core/ports.js';
import { O200kTokenCounter } from './o200k-tokens.js';
import { type OpenAiServer, openAiEndpoint, postOpenAi } from './openai-http.js';

/** Tokens of a server that reports none: counted with o200k_base, an estimate rather than nothing. */
const ESTIMATE = new O200kTokenCounter();

export interface OpenAiEmbedderConfig extends OpenAiServer {
  model: string;
  /** Put before every query (nomic-embed-text wants `search_query: `; e5 `query: `); none by default. */
  queryPrefix?: string;
  /** Put before every passage (nomic-embed-text: `search_document: `; e5: `passage: `); none by default. */
  passagePrefix?: string;
  /** Texts per request, at most; a longer call is sent as several. Default 32. */
  maxBatch?: number;
  /** How long a health answer is reused before the server is asked again (ms). Default 5000. */
  healthTtlMs?: number;
}

interface EmbeddingsBody {
  data?: Array<{ embedding?: unknown; index?: unknown }>;
  usage?: { prompt_tokens?: unknown };
}

type Purpose = 'query' | 'passage';

/** The embedder's name, as the data folder records it. */
export const openAiEmbedderName = (model: string) => `openai-compatible:${model}`;

/** Health asks the server no longer than this: health must answer fast. */
const HEALTH_TIMEOUT_MS = 1_500;

/**
 * Any server speaking OpenAI's `POST /v1/embeddings` (Ollama, text-embeddings-
 * inference, LM Studio, vLLM, OpenAI itself). Its dimensions are learned from
 * a first call made by start(). Vectors are scaled to unit length, as the
 * index compares them by inner product. The tokens of a call are the
 * server's `usage.prompt_tokens`; a server that reports none (or zero) is
 * counted with o200k_base, an estimate rather than nothing. Every failure
 * (no answer, timeout, 429, 5xx, a 4xx refusal, a malformed answer) is a
 * BackendUnavailableError: a capture then fails `backend_unavailable`,
 * retryable, and keeps nothing.
 */
export class OpenAiCompatibleEmbedder implements Embedder {
  readonly name: string;
  private lastHealth: { at: number; state: 'ok' | 'degraded'; detail: string | null } | null = null;

  private constructor(
    private readonly config: OpenAiEmbedderConfig,
    readonly dimensions: number,
  ) {
    this.name = openAiEmbedderName(config.model);
  }

  /**
   * Asks the server for one embedding to learn its dimensions. A server that
   * cannot answer stops the start, saying why, unless `knownDimensions` (what
   * the data folder recorded for this model) lets it start degraded: its
   * calls fail as BackendUnavailableError until the server is back.
   */
  static async start(
    config: OpenAiEmbedderConfig,
    options: { knownDimensions?: number; onProbeFailed?: (error: Error) => void } = {},
  ): Promise<OpenAiCompatibleEmbedder> {
    let probe: Float32Array[];
    try {
      probe = (await new OpenAiCompatibleEmbedder(config, 0).request(['dimension probe'], 'query')).vectors;
    } catch (error) {
      if (options.knownDimensions) {
        options.onProbeFailed?.(error as Error);
        return new OpenAiCompatibleEmbedder(config, options.knownDimensions);
      }
      throw new Error(
        `the embedding server at ${openAiEndpoint(config.url, '/embeddings')} (model ${config.model}) could not embed a probe: ` +
          `${error instanceof Error ? error.message : String(error)}. Start it (e.g. \`ollama pull ${config.model}\`), ` +
          'or unset LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL to use the offline embedder.',
        { cause: error },
      );
    }
    return new OpenAiCompatibleEmbedder(config, probe[0]!.length);
  }

  async embed(texts: readonly string[], purpose: Purpose): Promise<Embedding> {
    const max = Math.max(1, this.config.maxBatch ?? 32);
    const out: Embedding = { vectors: [], tokens: 0 };
    for (let i = 0; i < texts.length; i += max) {
      const { vectors, tokens } = await this.request(texts.slice(i, i + max), purpose);
      out.vectors.push(...vectors);
      out.tokens += tokens;
    }
    return out;
  }

  /** `ok` when the server embedded a probe lately; `degraded` (searches by words only, captures wait) when it cannot. */
  async health(): Promise<{ state: 'ok' | 'degraded'; detail: string | null }> {
    const ttl = this.config.healthTtlMs ?? 5_000;
    const said = () => ({ state: this.lastHealth!.state, detail: this.lastHealth!.detail });
    if (this.lastHealth && Date.now() - this.lastHealth.at < ttl) return said();
    const probe = new OpenAiCompatibleEmbedder(
      { ...this.config, timeoutMs: Math.min(this.config.timeoutMs ?? HEALTH_TIMEOUT_MS, HEALTH_TIMEOUT_MS) },
      this.dimensions,
    );
    try {
      await probe.request(['health probe'], 'query');
      this.lastHealth = { at: Date.now(), state: 'ok', detail: null };
    } catch (error) {
      this.lastHealth = {
        at: Date.now(),
        state: 'degraded',
        detail: error instanceof Error ? error.message : String(error),
      };
    }
    return said();
  }

  private async request(texts: readonly string[], purpose: Purpose): Promise<Embedding> {
    if (!texts.length) return { vectors: [], tokens: 0 };
    const prefix = (purpose === 'query' ? this.config.queryPrefix : this.config.passagePrefix) ?? '';
    // Servers refuse an empty input; a lone full stop embeds as "nothing in particular".
    const input = texts.map((text) => prefix + (text.trim() ? text : '.'));
    const body = (await postOpenAi(
      this.config,
      '/embeddings',
      { model: this.config.model, input, encoding_format: 'float' },
      'the embedding server',
    )) as EmbeddingsBody;
    const vectors = this.vectorsOf(body, input.length);
    const reported = body.usage?.prompt_tokens;
    const tokens =
      typeof reported === 'number' && Number.isFinite(reported) && reported > 0
        ? Math.round(reported)
        : await ESTIMATE.count(input);
    return { vectors, tokens };
  }

  /** The answer's vectors in input order (by `index` when given), checked and scaled to unit length. */
  private vectorsOf(body: EmbeddingsBody, count: number): Float32Array[] {
    const malformed = (why: string) =>
      new BackendUnavailableError(`the embedding server sent a malformed answer: ${why}`);
    if (!Array.isArray(body?.data) || body.data.length !== count)
      throw malformed(`${count} embeddings expected, got ${Array.isArray(body?.data) ? body.data.length : 'none'}`);
    const out = new Array<Float32Array>(count);
    body.data.forEach((entry, position) => {
      const at = typeof entry?.index === 'number' ? entry.index : position;
      const values = entry?.embedding;
      if (
        !Array.isArray(values) ||
        !values.length ||
        !values.every((x) => typeof x === 'number' && Number.isFinite(x))
      ) {
        throw malformed(`embedding ${at} is not a list of numbers (was encoding_format "float" ignored?)`);
      }
      if (this.dimensions && values.length !== this.dimensions) {
        throw malformed(
          `embedding ${at} has ${values.length} dimensions, not the ${this.dimensions} this model gave before`,
        );
      }
      if (at < 0 || at >= count || out[at]) throw malformed(`embedding index ${at} is out of place`);
      out[at] = unit(Float32Array.from(values as number[]));
    });
    return out;
  }
}

function unit(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const x of vector) sum += x * x;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}
