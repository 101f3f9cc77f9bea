import { createHash } from 'node:crypto';
import type { Embedder } from '../../lambdas/ports.js';

/**
 * A deterministic stand-in for a sentence encoder in unit tests: a hashed bag
 * of words, unit length. Texts sharing words are close; others are not.
 */
export class HashingEmbedder implements Embedder {
  readonly name = 'hashing-test-embedder';
  calls = 0;

  constructor(readonly dimensions = 64) {}

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.calls += 1;
    return texts.map((text) => {
      const v = new Float32Array(this.dimensions);
      for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
        const h = createHash('md5').update(word).digest();
        v[h.readUInt16LE(0) % this.dimensions]! += h[2]! & 1 ? 1 : -1;
      }
      const norm = Math.hypot(...v) || 1;
      return v.map((x) => x / norm);
    });
  }
}
