/**
 * A persistent embedding cache for benchmarks: embedding SciFact's corpus with
 * the local model takes tens of minutes, so vectors are kept in .cache/
 * (gitignored) between runs.
 *
 *   new CachedEmbedder({ namespace, inner?, dir? })  an Embedder (lambdas/core/ports.ts) that answers from
 *       the cache and embeds only what is missing, appending it to the cache file at once (an
 *       interrupted run keeps what it did). `inner` defaults to the real local model, loaded
 *       only on the first miss.
 *   chunkingNamespace(options)  the namespace for a chunking setting, e.g. "t400-m500"
 *   CachedEmbedder#stats        { hits, misses } since creation
 *
 * The file is .cache/embeddings/<embedder name>__<namespace>.bin; each record
 * is the SHA-1 of (purpose, text) followed by the float32 vector. The
 * namespace names what produced the texts (the chunking), so a file holds
 * one setting's vectors; the text hash makes any lookup exact.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ChunkingOptions } from '../../lambdas/core/chunking.js';
import type { Embedder, Embedding } from '../../lambdas/core/ports.js';

export const CACHE_DIR = resolve(import.meta.dirname, '../../.cache/embeddings');

const KEY_BYTES = 20;

export const chunkingNamespace = (options: ChunkingOptions): string => `t${options.targetChars}-m${options.maxChars}`;

const keyOf = (purpose: string, text: string) => createHash('sha1').update(purpose).update('\0').update(text).digest();

async function loadLocalModel(): Promise<Embedder> {
  const { EmbedderPool } = await import('../../lambdas/adapters/local/embedder-pool.js');
  return EmbedderPool.start();
}

/**
 * The benchmarks' embedder: the cache over the embeddings server that
 * LIBRARY_EMBED_URL and LIBRARY_EMBED_MODEL name (as `npm start` reads them,
 * prefixes included in the namespace, as they change the vectors), else over
 * the local model.
 */
export async function benchEmbedder(namespace: string): Promise<CachedEmbedder> {
  const { readLocalConfig } = await import('../../bin/config.js');
  const server = readLocalConfig().embed;
  if (!server) return new CachedEmbedder({ namespace });
  const { OpenAiCompatibleEmbedder } = await import('../../lambdas/adapters/local/openai-compatible-embedder.js');
  const prefixes =
    server.queryPrefix || server.passagePrefix
      ? `-p${createHash('sha1').update(`${server.queryPrefix}\0${server.passagePrefix}`).digest('hex').slice(0, 8)}`
      : '';
  return new CachedEmbedder({
    namespace: `${namespace}${prefixes}`,
    inner: await OpenAiCompatibleEmbedder.start(server),
  });
}

export interface CachedEmbedderOptions {
  namespace: string;
  /** The model to fill misses with; default: the local Universal Sentence Encoder. */
  inner?: Embedder;
  /** Name and dimensions when no inner model is given (default: the local model's). */
  name?: string;
  dimensions?: number;
  dir?: string;
}

export class CachedEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;
  readonly file: string;
  readonly stats = { hits: 0, misses: 0 };
  private readonly vectors = new Map<string, Float32Array>();
  private inner: Promise<Embedder> | null;

  constructor(options: CachedEmbedderOptions) {
    this.name = options.inner?.name ?? options.name ?? 'universal-sentence-encoder-lite';
    this.dimensions = options.inner?.dimensions ?? options.dimensions ?? 512;
    this.inner = options.inner ? Promise.resolve(options.inner) : null;
    const dir = options.dir ?? CACHE_DIR;
    mkdirSync(dir, { recursive: true });
    // A model name may hold characters a file name cannot (BAAI/bge-small-en-v1.5, openai-compatible:...).
    this.file = join(dir, `${this.name.replace(/[^\w.-]+/g, '_')}__${options.namespace}.bin`);
    this.load();
  }

  get size(): number {
    return this.vectors.size;
  }

  private load() {
    if (!existsSync(this.file)) return;
    const bytes = readFileSync(this.file);
    const record = KEY_BYTES + this.dimensions * 4;
    // A torn last record (an interrupted append) is ignored.
    for (let at = 0; at + record <= bytes.length; at += record) {
      const key = bytes.subarray(at, at + KEY_BYTES).toString('hex');
      const floats = new Float32Array(this.dimensions);
      Buffer.from(floats.buffer).set(bytes.subarray(at + KEY_BYTES, at + record));
      this.vectors.set(key, floats);
    }
  }

  /** Tokens: those the model read for the texts not cached (a cached vector costs none). */
  async embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Embedding> {
    const keys = texts.map((t) => keyOf(purpose, t));
    const missing = [...new Set(texts.filter((_, i) => !this.vectors.has(keys[i]!.toString('hex'))))];
    this.stats.hits += texts.length - missing.length;
    this.stats.misses += missing.length;
    let tokens = 0;
    if (missing.length) {
      this.inner ??= loadLocalModel();
      const { vectors: fresh, tokens: read } = await (await this.inner).embed(missing, purpose);
      tokens = read;
      const records: Buffer[] = [];
      missing.forEach((text, i) => {
        const key = keyOf(purpose, text);
        const vector = fresh[i]!;
        this.vectors.set(key.toString('hex'), vector);
        records.push(key, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      });
      appendFileSync(this.file, Buffer.concat(records));
    }
    return { vectors: keys.map((k) => this.vectors.get(k.toString('hex'))!), tokens };
  }
}
