import type { Embedder, Embedding } from '../../lambdas/core/ports.js';

/**
 * Another embedder's scale over the same meaning: each vector of `inner`
 * gets one more dimension of weight `shift` and is scaled back to unit
 * length, so every cosine c becomes (c + shift²) / (1 + shift²). With
 * shift 1, unrelated texts that score 0.1 with the inner model score 0.55
 * and a 0.58 bar admits nearly everything: the scale of many hosted
 * embedders, whose cosines crowd above 0.5. Rankings are unchanged, so
 * only a gate that ignores the scale can tell the two apart.
 */
export class ShiftedEmbedder implements Embedder {
  readonly name: string;
  readonly dimensions: number;

  constructor(
    private readonly inner: Embedder,
    private readonly shift = 1,
  ) {
    this.name = `${inner.name}+shift${shift}`;
    this.dimensions = inner.dimensions + 1;
  }

  async embed(texts: readonly string[], purpose?: 'query' | 'passage'): Promise<Embedding> {
    const { vectors, tokens } = await this.inner.embed(texts, purpose as never);
    return {
      tokens,
      vectors: vectors.map((v) => {
        let norm = 0;
        for (const x of v) norm += x * x;
        const length = Math.sqrt(norm) || 1;
        const out = new Float32Array(v.length + 1);
        const scale = 1 / Math.sqrt(1 + this.shift * this.shift);
        for (let i = 0; i < v.length; i++) out[i] = (v[i]! / length) * scale;
        out[v.length] = this.shift * scale;
        return out;
      }),
    };
  }
}
