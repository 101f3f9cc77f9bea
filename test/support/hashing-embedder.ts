import { createHash } from 'node:crypto';
import type { Embedder, Embedding } from '../../lambdas/core/ports.js';

/**
 * A deterministic stand-in for a sentence encoder in unit tests: a hashed bag
 * of words, unit length. Texts sharing words are close; others are not.
 * Its tokens are the words it read.
 */
export class HashingEmbedder implements Embedder {
  readonly name = 'hashing-test-embedder';
  calls = 0;

  constructor(readonly dimensions = 64) {}

  async embed(texts: readonly string[]): Promise<Embedding> {
    this.calls += 1;
    let tokens = 0;
    const vectors = texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
      tokens += words.length;
      for (const word of words) {
        const h = createHash('md5').update(word).digest();
        v[h.readUInt16LE(0) % this.dimensions]! += h[2]! & 1 ? 1 : -1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
    return { vectors, tokens };
  }
}
