import type { Embedder } from '../../ports.js';

/**
 * Coalesces concurrent embed calls into one model call: a model computes a
 * batch faster than the same texts one call at a time, and concurrent
 * captures and searches otherwise queue behind each other anyway. Queued
 * queries go before queued passages, so a search during a burst of captures
 * waits for at most the model call already running. (USE lite's cost is
 * about linear in characters, so merging passages saves little for it;
 * batching pays more for remote models.)
 */
export class BatchingEmbedder implements Embedder {
  private queue: Array<{ texts: readonly string[]; purpose: 'query' | 'passage'; resolve: (v: Float32Array[]) => void; reject: (e: unknown) => void }> = [];
  /** A model call is under way; calls arriving meanwhile wait and go together in the next one. */
  private busy = false;

  constructor(
    private readonly inner: Embedder,
    private readonly maxBatch = 64,
  ) {}

  get name() {
    return this.inner.name;
  }
  get dimensions() {
    return this.inner.dimensions;
  }

  embed(texts: readonly string[], purpose: 'query' | 'passage'): Promise<Float32Array[]> {
    if (!texts.length) return Promise.resolve([]);
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, purpose, resolve, reject });
      // An idle model starts at once (a search's query embedding then runs while
      // its keyword leg does); a busy one takes everything queued when it is done.
      if (!this.busy) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.busy = true;
    while (this.queue.length) {
      // Queries first: a search waits for one short model call, never behind queued documents.
      const purpose = this.queue.some((entry) => entry.purpose === 'query') ? 'query' : 'passage';
      const batch: typeof this.queue = [];
      let size = 0;
      for (const entry of [...this.queue]) {
        if (entry.purpose !== purpose) continue;
        if (size > 0 && size + entry.texts.length > this.maxBatch) break;
        batch.push(entry);
        size += entry.texts.length;
      }
      this.queue = this.queue.filter((entry) => !batch.includes(entry));
      try {
        const vectors = await this.inner.embed(batch.flatMap((b) => b.texts), purpose);
        let offset = 0;
        for (const entry of batch) {
          entry.resolve(vectors.slice(offset, offset + entry.texts.length));
          offset += entry.texts.length;
        }
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    this.busy = false;
  }

  close(): Promise<void> {
    return (this.inner as Embedder & { close?: () => Promise<void> }).close?.() ?? Promise.resolve();
  }
}
